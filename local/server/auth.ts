import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Answers the request itself (refusal or redirect) and returns false, or lets it through. */
export type RequestGate = (req: IncomingMessage, res: ServerResponse) => boolean;

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

/**
 * `geohub up` serves only the user who started it (docs/architecture.md#access): every
 * request — API, page, assets, routes added later — passes this gate first. It accepts the
 * per-start secret as `Authorization: Bearer` (the CLI, which reads it from a file only its
 * user can read) or as a strict same-site, HttpOnly cookie (the page). The page gets the cookie
 * as notebook servers do: the URL printed at start carries `?token=` once; the answer sets the
 * cookie and redirects to the same path without the token, so it stays out of history.
 */
export function tokenGate(secret: string, port: number): RequestGate {
  // Cookies ignore ports: each `geohub up` names its own.
  const cookie = `geohub-up-${port}`;
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (sameSecret(bearer, secret) || sameSecret(cookieValue(req, cookie), secret)) return true;
    const query = url.searchParams.get('token') ?? undefined;
    if ((req.method === 'GET' || req.method === 'HEAD') && sameSecret(query, secret)) {
      url.searchParams.delete('token');
      res
        .writeHead(303, {
          'set-cookie': `${cookie}=${secret}; HttpOnly; SameSite=Strict; Path=/`,
          location: `${url.pathname}${url.search}`,
          'cache-control': 'no-store',
          'referrer-policy': 'no-referrer',
        })
        .end();
      return false;
    }
    res.writeHead(401, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(
      JSON.stringify({
        error:
          'geohub up serves only the user who started it: open the URL it printed, or use the geohub CLI as that user',
      }),
    );
    return false;
  };
}
