import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { Readable } from 'node:stream';
import type { GateVerdict, IamGate } from '../iam/iam-gate.js';
import { versionInBody, versionOfWrite } from '../stack/versioned-events.js';
import type { InjectedAnswer } from './aws-error-shapes.js';
import type { FaultDecider, Verdict } from './fault-decider.js';
import { admit, boundedBody, type FrontDoor, readBody } from './front-door.js';

export interface FaultProxy {
  readonly endpoint: string;
  close(): Promise<void>;
}

export interface FaultProxyOptions {
  /** The emulator's endpoint, e.g. http://127.0.0.1:8000. */
  readonly target: string;
  readonly decide: FaultDecider;
  /** Added latency per request: uniform in [0, latencyMs]. */
  readonly latencyMs: number;
  readonly random: () => number;
  readonly onInjected: (kind: string) => void;
  readonly onRequest?: () => void;
  /** The caller and the body's bounds, checked before a byte of the body is read (front-door.ts). */
  readonly door: FrontDoor;
  /** IAM (local/iam/iam-gate.ts): asked first; a refused request never reaches the faults or the stand-in. */
  readonly gate?: IamGate;
  /** S3: a write's reply names the version a versioned bucket gave it (versioned-events.ts). */
  readonly versioned?: boolean;
}

// Not part of SigV4's signed headers; this server has answered the 100 itself.
const DROPPED = new Set(['expect']);
const UNREAD = Buffer.alloc(0);

function answer(res: ServerResponse, injected: InjectedAnswer): void {
  res.writeHead(injected.status, { ...injected.headers, 'content-length': Buffer.byteLength(injected.body) });
  res.end(injected.body);
}

/**
 * An HTTP proxy in front of one emulator that answers some requests itself, in AWS's
 * shapes, as the fault decider says. Requests and responses are otherwise passed through
 * byte for byte (same Host header, so signatures still verify), responses streamed.
 */
export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(options.target);
  const agent = new Agent({ keepAlive: true });

  const forward = (
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer | Readable,
    verdict: Verdict,
    given: IncomingMessage['headers'],
    missing?: () => Promise<InjectedAnswer | undefined>,
  ) => {
    const headers = Object.fromEntries(Object.entries(given).filter(([k]) => !DROPPED.has(k)));
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers,
        agent,
      },
      (reply) => {
        const pass = () => {
          if (options.versioned) return passVersioned(req, res, reply, verdict);
          res.writeHead(reply.statusCode ?? 502, reply.rawHeaders);
          reply.pipe(res);
          reply.once('end', () => verdict.done?.());
        };
        if (reply.statusCode !== 404 || !missing) return pass();
        missing().then(
          (refused) => {
            if (!refused) return pass();
            reply.resume();
            verdict.done?.();
            answer(res, refused);
          },
          () => res.destroy(),
        );
      },
    );
    upstream.once('error', () => {
      verdict.done?.();
      res.destroy();
    });
    res.once('close', () => {
      verdict.done?.();
      upstream.destroy();
    });
    if (Buffer.isBuffer(body)) upstream.end(body);
    else body.pipe(upstream);
  };

  // A completed multipart upload's or a copy's reply is a few hundred bytes of XML: read whole, its ETag names the version.
  const passVersioned = (
    req: IncomingMessage,
    res: ServerResponse,
    reply: IncomingMessage,
    verdict: Verdict,
  ) => {
    const request = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      copySource: req.headers['x-amz-copy-source'] as string | undefined,
    };
    const status = reply.statusCode ?? 502;
    const send = (body?: Buffer) => {
      const version = versionOfWrite(request, {
        status,
        etag: reply.headers.etag,
        body: body?.toString('utf8'),
      });
      res.writeHead(status, [...reply.rawHeaders, ...(version ? ['x-amz-version-id', version] : [])]);
      if (body) {
        res.end(body);
        verdict.done?.();
        return;
      }
      reply.pipe(res);
      reply.once('end', () => verdict.done?.());
    };
    if (status !== 200 || !versionInBody(request.method, request.url, request.copySource)) return send();
    const chunks: Buffer[] = [];
    reply.on('data', (c: Buffer) => chunks.push(c));
    reply.once('end', () => send(Buffer.concat(chunks)));
  };

  const server = createServer((req, res) => {
    options.onRequest?.();
    req.socket.setNoDelay(true);
    // The caller is known before the body is read; the body is bounded as it is read.
    if (!admit(req, res, options.door)) return;
    const stream = boundedBody(req, res, options.door);
    (options.door.buffered ? readBody(stream) : Promise.resolve(UNREAD))
      .then(async (body) => {
        const info = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body };
        const gated: GateVerdict = options.gate ? await options.gate(info) : { headers: req.headers };
        if ('deny' in gated) {
          if (!options.door.buffered) stream.resume(); // refused unread, as AWS does: the connection stays usable
          return answer(res, gated.deny);
        }
        const verdict = options.decide(info);
        if (options.latencyMs > 0)
          await new Promise((r) => setTimeout(r, options.random() * options.latencyMs));
        const injected = verdict.inject;
        if (!injected)
          return forward(
            req,
            res,
            options.door.buffered ? body : stream,
            verdict,
            gated.headers,
            gated.missing,
          );
        options.onInjected(injected.kind);
        if (!options.door.buffered) stream.resume(); // read and dropped: the connection stays usable
        answer(res, injected);
      })
      .catch(() => res.destroy());
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
