import { createRequire } from 'node:module';
import { encodeEventKey } from '../../lib/trigger/s3-event.js';
import type { StartedEmulator } from './emulator-protocol.js';
import type { LocalCredentials } from './local-credentials.js';
import { authorizedRequest } from './stand-in-auth.js';

const require = createRequire(import.meta.url);

interface KoaContext {
  headers: Record<string, string | string[] | undefined>;
  url: string;
  status: number;
  body: unknown;
  type: string;
}
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;

/** s3rver puts raw keys in its events; S3 URL-encodes them ('+' for a space). Do as S3 does. */
function encodeKey(record: unknown): unknown {
  const r = record as { s3?: { object?: { key?: string } } };
  const key = r.s3?.object?.key;
  if (typeof key !== 'string') return record;
  return { ...r, s3: { ...r.s3, object: { ...r.s3?.object, key: encodeEventKey(key) } } };
}

/**
 * s3rver on a port it binds itself (port 0), answering only requests that name this start's
 * access key id: s3rver serves anonymous requests, and checks a SigV4 request's key id but
 * not its signature.
 */
export async function startS3(
  dataDir: string,
  credentials: LocalCredentials,
  onEvent: (record: unknown) => void,
): Promise<StartedEmulator> {
  const S3rver = require('s3rver') as new (
    options: object,
  ) => {
    run(): Promise<{ port: number }>;
    close(): Promise<void>;
    on(event: 'event', listener: (event: { Records: unknown[] }) => void): void;
    middleware: Middleware[];
  };
  const accounts = require('s3rver/lib/models/account.js') as {
    DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void; revokeAccessKey(id: string): void };
  };
  accounts.DUMMY_ACCOUNT.revokeAccessKey('S3RVER');
  accounts.DUMMY_ACCOUNT.createKeyPair(credentials.accessKeyId, credentials.secretAccessKey);
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dataDir });
  server.middleware.unshift(async (ctx, next) => {
    if (authorizedRequest(ctx.headers, ctx.url, credentials.accessKeyId)) return next();
    ctx.status = 403;
    ctx.type = 'application/xml';
    ctx.body =
      '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>';
  });
  server.on('event', (event) => {
    for (const record of event.Records) onEvent(encodeKey(record));
  });
  const { port } = await server.run();
  return { port, stop: () => server.close() };
}
