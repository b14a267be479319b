import type { ObjectStore } from '../../lib/store/object-store.js';

/** What went through a store: every byte read, by which calls. */
export interface ReadCounts {
  bytesRead: number;
  rangedGets: number;
  wholeGets: number;
}

/**
 * Wraps a store and counts the bytes read back from it, to prove a header reader reads a small
 * fraction of an object by ranged GETs and never downloads it whole.
 */
export function countingStore(inner: ObjectStore): { store: ObjectStore; counts: ReadCounts } {
  const counts: ReadCounts = { bytesRead: 0, rangedGets: 0, wholeGets: 0 };
  const store: ObjectStore = {
    get bucket() {
      return inner.bucket;
    },
    head: (key, options) => inner.head(key, options),
    async getRange(key, start, end, options) {
      const bytes = await inner.getRange(key, start, end, options);
      counts.rangedGets += 1;
      counts.bytesRead += bytes.byteLength;
      return bytes;
    },
    async getText(key, options) {
      const text = await inner.getText(key, options);
      counts.wholeGets += 1;
      counts.bytesRead += Buffer.byteLength(text);
      return text;
    },
    async getStream(key, options) {
      counts.wholeGets += 1;
      const stream = await inner.getStream(key, options);
      stream.on('data', (chunk: Buffer) => {
        counts.bytesRead += chunk.byteLength;
      });
      return stream;
    },
    putFile: (key, path, options) => inner.putFile(key, path, options),
    putText: (key, body, options) => inner.putText(key, body, options),
    putStream: (key, chunks, options) => inner.putStream(key, chunks, options),
    async download(key, path, options) {
      const head = await inner.download(key, path, options);
      counts.wholeGets += 1;
      counts.bytesRead += head.bytes;
      return head;
    },
    list: (prefix, options) => inner.list(prefix, options),
    delete: (key, options) => inner.delete(key, options),
  };
  return { store, counts };
}
