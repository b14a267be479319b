import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NONCE, PROOF_PATH, proofOf } from './server-proof.js';

/** Answers the request itself (refusal or redirect) and returns false, or lets it through. */
export type RequestGate = (req: IncomingMessage, res: ServerResponse) => boolean;

export interface UpSecrets {
  /** The CLI's bearer token: in the owner-only token file, never in a cookie. */
  readonly token: string;
  /** The page's session: a cookie value worth nothing as a bearer token, kept only in memory. */
  readonly session: string;
}

const sameSecret = (given: string | undefined, secret: string) => {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
};

function cookieValue(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

const SAFE = new Set(['GET', 'HEAD']);

/**
 * Whether a cookie-carrying request comes from this server's own page. Browsers send `Origin` on
 * every state-changing fetch and `Sec-Fetch-Site` on every request; a state change needs one of
 * them to name this server, whatever its content type. A read refuses only a foreign one (a
 * typed URL or a bookmark has no Origin and `Sec-Fetch-Site: none`).
 */
export function fromOwnPage(req: IncomingMessage, port: number): boolean {
  const own = [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
  const origin = req.headers.origin;
  const site = req.headers['sec-fetch-site'];
  if (origin !== undefined && !own.includes(origin)) return false;
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  if (SAFE.has(req.method ?? 'GET')) return true;
  return origin !== undefined || site === 'same-origin';
}

const refuse = (res: ServerResponse, status: number, error: string) => {
  res
    .writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    .end(JSON.stringify({ error }));
  return false;
};

/**
 * `geohub up` serves only the user who started it (docs/security.md): every request — API, page,
 * assets, routes added later — passes this gate first. The CLI sends the token as
 * `Authorization: Bearer` (it reads it from a file only its user can read). The page has a
 * session of its own: cookies are not scoped by port (RFC 6265 §8.5), so whatever the browser
 * keeps is sent to every server on 127.0.0.1; the cookie is therefore not the token, and is
 * accepted only from this server's own page (fromOwnPage). The page gets it as notebook servers
 * do: the URL printed at start carries `?login=` once; the answer sets the cookie and redirects
 * to the same path without it, so it stays out of history.
 *
 * One route answers before the secret: the server's proof (server-proof.ts), which the CLI asks
 * for before it sends the token.
 */
export function tokenGate(secrets: UpSecrets, port: number): RequestGate {
  // Each `geohub up` names its own cookie, so two of them do not log each other out.
  const cookie = `geohub-up-${port}`;
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === PROOF_PATH) {
      const nonce = url.searchParams.get('nonce') ?? '';
      if (!NONCE.test(nonce)) return refuse(res, 400, 'a nonce is 43 base64url characters');
      res
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify({ proof: proofOf(secrets.token, nonce) }));
      return false;
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (sameSecret(bearer, secrets.token)) return true;
    if (sameSecret(cookieValue(req, cookie), secrets.session)) {
      if (fromOwnPage(req, port)) return true;
      return refuse(res, 403, "the page's session is accepted only from this server's own page");
    }
    const login = url.searchParams.get('login') ?? undefined;
    if (SAFE.has(req.method ?? 'GET') && sameSecret(login, secrets.session)) {
      url.searchParams.delete('login');
      res
        .writeHead(303, {
          'set-cookie': `${cookie}=${secrets.session}; HttpOnly; SameSite=Strict; Path=/`,
          location: `${url.pathname}${url.search}`,
          'cache-control': 'no-store',
          'referrer-policy': 'no-referrer',
        })
        .end();
      return false;
    }
    return refuse(
      res,
      401,
      'geohub up serves only the user who started it: open the URL it printed, or use the geohub CLI as that user',
    );
  };
}
