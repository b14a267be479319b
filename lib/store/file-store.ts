import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { ObjectReadError } from './errors.js';
import type { ObjectHead, ObjectStore } from './object-store.js';

/**
 * A read-only ObjectStore over one local file, so `geohub plan` reads a header exactly as
 * the split Lambda does (ranged reads), without uploading anything.
 */
export function localFileStore(path: string): ObjectStore & { readonly key: string } {
  return { ...localFilesStore(dirname(path), new Map([[basename(path), path]])), key: basename(path) };
}

/** The same over several local files, each under its own key (`geohub plan` of a collection). */
export function localFilesStore(bucket: string, files: ReadonlyMap<string, string>): ObjectStore {
  const readOnly = () => Promise.reject(new Error('a local file store is read-only'));
  const pathOf = (k: string) => {
    const path = files.get(k);
    if (path === undefined) throw new ObjectReadError(`${k} is not in this store`);
    return path;
  };
  return {
    bucket,
    async head(k): Promise<ObjectHead | undefined> {
      const path = pathOf(k);
      const s = await stat(path).catch(() => undefined);
      return s ? { bytes: s.size, etag: `${s.mtimeMs}-${s.size}` } : undefined;
    },
    async getRange(k, start, end) {
      const handle = await open(pathOf(k), 'r');
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
      return createReadStream(pathOf(k));
    },
    putFile: readOnly,
    putText: readOnly,
    putStream: readOnly,
    download: readOnly,
    async *list() {},
    delete: readOnly,
  };
}
