import { join } from 'node:path';
import type { ObjectStore } from './object-store.js';

/**
 * Where an object is, in the user's terms: `s3://bucket/key` for a bucket, the plain path for
 * a local file store (whose "bucket" is a directory, so it starts with `/`).
 */
export function objectLocation(store: Pick<ObjectStore, 'bucket'>, key: string): string {
  return store.bucket.startsWith('/') ? join(store.bucket, key) : `s3://${store.bucket}/${key}`;
}
