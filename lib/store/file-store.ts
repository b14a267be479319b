import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { Readable } from 'node:stream';
import type { ObjectHead, ObjectStore } from './object-store.js';

/**
 * A read-only ObjectStore over one local file, so `geohub plan` reads a header exactly as
 * the split Lambda does (ranged reads), without uploading anything.
 */
export function localFileStore(path: string): ObjectStore & { readonly key: string } {
  const key = basename(path);
  const readOnly = () => Promise.reject(new Error('a local file store is read-only'));
  const check = (k: string) => {
    if (k !== key) throw new Error(`only ${key} is in this store`);
  };
  return {
    bucket: dirname(path),
    key,
    async head(k): Promise<ObjectHead | undefined> {
      check(k);
      const s = await stat(path).catch(() => undefined);
      return s ? { bytes: s.size, etag: `${s.mtimeMs}-${s.size}` } : undefined;
    },
    async getRange(k, start, end) {
      check(k);
      const handle = await open(path, 'r');
      try {
        const buffer = Buffer.alloc(end - start + 1);
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
        return new Uint8Array(buffer.subarray(0, bytesRead));
      } finally {
        await handle.close();
      }
    },
    async getText() {
      return readOnly();
    },
    async getStream(k): Promise<Readable> {
      check(k);
      return createReadStream(path);
    },
    putFile: readOnly,
    putText: readOnly,
    putStream: readOnly,
    download: readOnly,
    async *list() {},
    delete: readOnly,
  };
}
