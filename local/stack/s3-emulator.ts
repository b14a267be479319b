// Static imports: the CLI's bundle (scripts/bundle-local.mjs) then holds s3rver and its Koa,
// loaded from one file rather than some 200 modules of node_modules.
import S3rver from 's3rver';
import AWSAccount from 's3rver/lib/models/account.js';
import { encodeEventKey } from '../../lib/trigger/s3-event.js';
import type { StartedEmulator } from './emulator-protocol.js';
import type { LocalCredentials } from './local-credentials.js';
import { MetadataMd5Store } from './s3rver-store.js';
import { authorizedRequest } from './stand-in-auth.js';

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
  AWSAccount.DUMMY_ACCOUNT.revokeAccessKey('S3RVER');
  AWSAccount.DUMMY_ACCOUNT.createKeyPair(credentials.accessKeyId, credentials.secretAccessKey);
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dataDir });
  // Two files an object, not three (s3rver-store.ts).
  server.store = server.context.store = new MetadataMd5Store(dataDir);
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
