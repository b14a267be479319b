import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Readable, Transform } from 'node:stream';
import { authorizedRequest } from '../stack/stand-in-auth.js';

const MiB = 1024 * 1024;

/** What a proxy checks before it reads a byte of a request's body. */
export interface FrontDoor {
  /**
   * This start's access key ids (local-credentials.ts; with IAM, each principal's too): the
   * caller is known from the headers.
   */
  readonly keyIds: readonly string[];
  /** The largest body a real request of this service has: past it, 413 unread. */
  readonly maxBodyBytes: number;
  /** A body that sends nothing for this long is dropped (408 if nothing was answered yet). */
  readonly bodyIdleMs: number;
  /** Buffered for the fault decider (DynamoDB reads the items it touches), else streamed on. */
  readonly buffered: boolean;
  readonly errors: 'json' | 'xml';
}

/**
 * The caps, from AWS's own limits (docs/security.md#the-stand-ins-front-door):
 * - DynamoDB: BatchWriteItem's whole request is at most 16 MB (TransactWriteItems 4 MB, an item
 *   400 KB); JSON's overhead on top of that is bounded by the same 16 MB of attribute data.
 * - SQS: a message or a batch is at most 1 MiB (256 KiB before 2025), in JSON.
 * - S3: one PUT is at most 5 GiB, the largest request there is (geohub's own multipart parts are
 *   16 MiB, or 1/10,000 of the upload: ~102 MB at --max-upload-gb 1024; a worker's
 *   tile is one PUT). Streamed, never buffered: its decider reads only the method and path.
 */
export const FRONT_DOORS = {
  dynamodb: { maxBodyBytes: 16 * MiB + MiB, bodyIdleMs: 30_000, buffered: true, errors: 'json' },
  // Buffered: IAM reads the queue a call names from its JSON body.
  sqs: { maxBodyBytes: 2 * MiB, bodyIdleMs: 30_000, buffered: true, errors: 'json' },
  s3: { maxBodyBytes: 5 * 1024 * MiB, bodyIdleMs: 120_000, buffered: false, errors: 'xml' },
} as const satisfies Record<string, Omit<FrontDoor, 'keyIds'>>;

const CODES: Record<number, [string, string]> = {
  403: ['AccessDenied', 'Access Denied'],
  408: [
    'RequestTimeout',
    'Your socket connection to the server was not read from or written to within the timeout period.',
  ],
  411: ['MissingContentLength', 'You must provide the Content-Length HTTP header.'],
  413: ['EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size.'],
};

/** Answers and closes the connection: the rest of the body is never read. */
export function refuse(
  res: ServerResponse,
  door: Pick<FrontDoor, 'errors'>,
  status: keyof typeof CODES,
): void {
  const [code, message] = CODES[status]!;
  const body =
    door.errors === 'xml'
      ? `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`
      : JSON.stringify({ __type: `com.amazonaws.geohub#${code}`, message });
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res
    .writeHead(status, {
      'content-type': door.errors === 'xml' ? 'application/xml' : 'application/x-amz-json-1.0',
      'x-amzn-requestid': randomUUID(),
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    })
    .end(body);
}

/**
 * The caller from the headers alone (the SigV4 header's or a presigned URL's key id), then the
 * body's stated size; false once the request has been answered. A chunked body states none:
 * the cap is then enforced as it arrives (boundedBody).
 */
export function admit(req: IncomingMessage, res: ServerResponse, door: FrontDoor): boolean {
  if (!authorizedRequest(req.headers, req.url ?? '/', door.keyIds)) {
    refuse(res, door, 403);
    return false;
  }
  const stated = req.headers['content-length'];
  if (stated !== undefined && !(Number(stated) <= door.maxBodyBytes)) {
    refuse(res, door, 413);
    return false;
  }
  return true;
}

/**
 * The body, bounded as it flows (to a buffer or on upstream): more bytes than the cap, or a
 * silence longer than the idle limit, and the request is answered and its connection closed.
 */
export function boundedBody(req: IncomingMessage, res: ServerResponse, door: FrontDoor): Readable {
  let seen = 0;
  const timer = setTimeout(() => stop(408), door.bodyIdleMs);
  const body = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      seen += chunk.length;
      if (seen > door.maxBodyBytes) return stop(413);
      timer.refresh();
      next(null, chunk);
    },
    flush(next) {
      clearTimeout(timer);
      next();
    },
  });
  const stop = (status: 408 | 413) => {
    clearTimeout(timer);
    refuse(res, door, status);
    req.destroy();
    body.destroy(new Error(status === 408 ? 'the body stalled' : 'the body is over its cap'));
  };
  // A client gone mid-body ends the body too: a buffered reader must not wait for it forever.
  req.once('close', () => {
    clearTimeout(timer);
    if (!req.complete) body.destroy(new Error('the body was cut off'));
  });
  req.on('error', (error) => body.destroy(error));
  // Whoever reads the body sees its end through the read itself; a streamed body's pipe does
  // not listen, and an 'error' nobody listens to would end the whole `geohub up`.
  body.on('error', () => {});
  return req.pipe(body);
}

/** All of a bounded body. */
export async function readBody(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
