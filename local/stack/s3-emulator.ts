// Static imports: the CLI's bundle (scripts/bundle-local.mjs) then holds s3rver and its Koa,
// loaded from one file rather than some 200 modules of node_modules.
import S3rver from 's3rver';
import AWSAccount from 's3rver/lib/models/account.js';
import { encodeEventKey } from '../../lib/trigger/s3-event.js';
import type { StartedEmulator } from './emulator-protocol.js';
import type { LocalCredentials } from './local-credentials.js';
import { type NotificationRule, notifies } from './s3-notification.js';
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
 * S3's ObjectCreated:Copy record carries the new object's ETag, as its other records do; s3rver's
 * leaves it out. Read from the copy's metadata: the run's source is pinned by it.
 */
async function withCopyEtag(store: MetadataMd5Store, record: unknown): Promise<unknown> {
  const r = record as {
    eventName?: string;
    s3?: { bucket?: { name?: string }; object?: { key?: string; eTag?: string } };
  };
  const o = r.s3?.object;
  if (r.eventName !== 'ObjectCreated:Copy' || !o?.key || o.eTag) return record;
  const metadata = await store.getMetadata(r.s3?.bucket?.name ?? '', o.key).catch(() => undefined);
  const etag = typeof metadata?.etag === 'string' ? (JSON.parse(metadata.etag) as string) : undefined;
  return etag ? { ...r, s3: { ...r.s3, object: { ...o, eTag: etag } } } : record;
}

/** The S3 stand-in's start: its port, its stop, and where its bucket's notifications are set. */
export interface StartedS3 extends StartedEmulator {
  /** The bucket's notification configuration: until it is set, no event is sent, as on S3. */
  setNotifications(rules: readonly NotificationRule[]): void;
}

/**
 * s3rver on a port it binds itself (port 0), answering only requests that name this start's
 * access key id: s3rver serves anonymous requests, and checks a SigV4 request's key id but
 * not its signature. Its events go out only as the bucket's notification configuration says
 * (s3-notification.ts): a run's tiles, under no notified prefix, send none.
 */
export async function startS3(
  dataDir: string,
  credentials: LocalCredentials,
  onEvent: (record: unknown) => void,
): Promise<StartedS3> {
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
  let rules: readonly NotificationRule[] = [];
  // In order, as they came: a copy's record waits for its ETag to be read.
  let delivered = Promise.resolve();
  server.on('event', (event) => {
    for (const record of event.Records as S3rverRecord[]) {
      if (!notifies(rules, record.eventName, record.s3.object.key)) continue;
      delivered = delivered
        .then(async () => onEvent(encodeKey(await withCopyEtag(server.store as MetadataMd5Store, record))))
        .catch(() => {});
    }
  });
  const { port } = await server.run();
  return {
    port,
    stop: () => server.close(),
    setNotifications: (given) => {
      rules = given;
    },
  };
}

/** What s3rver's records hold (its key as stored, not yet URL-encoded as S3 sends it). */
interface S3rverRecord {
  readonly eventName: string;
  readonly s3: { readonly object: { readonly key: string } };
}
