import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ObjectHead, ObjectStore } from '../../lib/store/object-store.js';

/** An ObjectStore held in memory, for unit tests: the same contract as S3, no network. */
export interface MemoryStore extends ObjectStore {
  readonly objects: Map<string, Uint8Array>;
  putBytes(key: string, bytes: Uint8Array): void;
}

const etagOf = (bytes: Uint8Array) => `"${createHash('md5').update(bytes).digest('hex')}"`;

export function createMemoryStore(bucket = 'memory-bucket'): MemoryStore {
  const objects = new Map<string, Uint8Array>();
  const get = (key: string) => {
    const bytes = objects.get(key);
    if (!bytes) throw Object.assign(new Error(`NoSuchKey: ${key}`), { name: 'NoSuchKey' });
    return bytes;
  };
  const put = (key: string, bytes: Uint8Array): ObjectHead => {
    objects.set(key, bytes);
    return { bytes: bytes.byteLength, etag: etagOf(bytes) };
  };
  return {
    bucket,
    objects,
    putBytes: (key, bytes) => void put(key, bytes),
    async head(key) {
      const bytes = objects.get(key);
      return bytes ? { bytes: bytes.byteLength, etag: etagOf(bytes) } : undefined;
    },
    async getRange(key, start, end) {
      const bytes = get(key);
      if (start >= bytes.byteLength) throw Object.assign(new Error('InvalidRange'), { name: 'InvalidRange' });
      return bytes.slice(start, Math.min(end + 1, bytes.byteLength));
    },
    async getText(key) {
      return Buffer.from(get(key)).toString('utf8');
    },
    async getStream(key) {
      return Readable.from([Buffer.from(get(key))]);
    },
    async putFile(key, path) {
      return put(key, new Uint8Array(await readFile(path)));
    },
    async putText(key, body) {
      return put(key, new Uint8Array(Buffer.from(body, 'utf8')));
    },
    async putStream(key, chunks) {
      const parts: Buffer[] = [];
      for await (const c of chunks)
        parts.push(typeof c === 'string' ? Buffer.from(c, 'utf8') : Buffer.from(c));
      return put(key, new Uint8Array(Buffer.concat(parts)));
    },
    async download(key, path) {
      const bytes = get(key);
      await writeFile(path, bytes);
      return { bytes: bytes.byteLength, etag: etagOf(bytes) };
    },
    async *list(prefix) {
      for (const key of [...objects.keys()].sort()) {
        if (key.startsWith(prefix))
          yield { key, bytes: objects.get(key)!.byteLength, etag: etagOf(objects.get(key)!) };
      }
    },
    async delete(key) {
      objects.delete(key);
    },
  };
}
