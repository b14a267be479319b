import { objectLocation } from '../store/object-location.js';
import type { ObjectPin, ObjectStore } from '../store/object-store.js';
import { ImplausibleHeaderError, SourceReadError, TruncatedSourceError } from './errors.js';

export interface BlockReaderOptions {
  /** Bytes per ranged GET unit. Header reads are small and clustered: one block usually holds them. */
  readonly blockSize?: number;
  /** Blocks kept in the cache (LRU). */
  readonly maxBlocks?: number;
  /** Largest single read a header parser may ask for: a corrupt count must not make us download gigabytes. */
  readonly maxReadBytes?: number;
  readonly signal?: AbortSignal;
  /** Every read is of this version (the run's source version: ./source-pin.ts). */
  readonly pin?: ObjectPin;
}

/** Random access to an object through cached, block-aligned ranged GETs. */
export interface BlockReader {
  readonly key: string;
  readonly size: number;
  /** Bytes [offset, offset + length) clamped to the object's end; throws if offset is at or past the end. */
  read(offset: number, length: number): Promise<Uint8Array>;
  /** A read was cut short by the end of the object (a parser failing after that met a truncated file). */
  readonly hitEnd: boolean;
  /** Bytes fetched from the store so far, and in how many requests. */
  readonly stats: { readonly bytes: number; readonly requests: number };
}

export const DEFAULT_BLOCK_SIZE = 32 * 1024;
export const DEFAULT_MAX_BLOCKS = 64;
export const DEFAULT_MAX_READ_BYTES = 16 * 1024 * 1024;

/**
 * A block cache over `store.getRange`. Reads are rounded out to whole blocks; missing blocks that
 * are adjacent are fetched with one GET; a block being fetched is shared by concurrent reads.
 */
export function createBlockReader(
  store: ObjectStore,
  key: string,
  size: number,
  options: BlockReaderOptions = {},
): BlockReader {
  const blockSize = options.blockSize ?? DEFAULT_BLOCK_SIZE;
  const maxBlocks = Math.max(1, options.maxBlocks ?? DEFAULT_MAX_BLOCKS);
  const maxReadBytes = options.maxReadBytes ?? DEFAULT_MAX_READ_BYTES;
  const cache = new Map<number, Uint8Array>();
  const inFlight = new Map<number, Promise<Uint8Array>>();
  const stats = { bytes: 0, requests: 0 };
  let hitEnd = false;

  const remember = (id: number, block: Uint8Array) => {
    cache.delete(id);
    cache.set(id, block);
    while (cache.size > maxBlocks) cache.delete(cache.keys().next().value!);
  };

  /** Fetches blocks first..last (inclusive) with one ranged GET and splits the answer into blocks. */
  const fetchRun = (first: number, last: number): void => {
    const start = first * blockSize;
    const end = Math.min((last + 1) * blockSize, size) - 1;
    const request = (async () => {
      stats.requests += 1;
      let bytes: Uint8Array;
      try {
        bytes = await store.getRange(key, start, end, { signal: options.signal, pin: options.pin });
      } catch (error) {
        if (options.signal?.aborted) throw error;
        throw new SourceReadError(
          `${objectLocation(store, key)}: reading bytes ${start}-${end} failed: ${(error as Error)?.message ?? error}`,
          { cause: error },
        );
      }
      stats.bytes += bytes.byteLength;
      if (bytes.byteLength !== end - start + 1) {
        throw new TruncatedSourceError(
          `${objectLocation(store, key)}: asked for bytes ${start}-${end}, got ${bytes.byteLength} bytes ` +
            '(the object is shorter than its listed size, or changed while we read it)',
        );
      }
      return bytes;
    })();
    for (let id = first; id <= last; id += 1) {
      const block = request.then((bytes) => {
        const from = (id - first) * blockSize;
        return bytes.subarray(from, Math.min(from + blockSize, bytes.byteLength));
      });
      inFlight.set(id, block);
      block.then(
        (b) => {
          if (inFlight.get(id) === block) inFlight.delete(id);
          remember(id, b);
        },
        () => {
          if (inFlight.get(id) === block) inFlight.delete(id);
        },
      );
    }
  };

  return {
    key,
    size,
    get hitEnd() {
      return hitEnd;
    },
    stats,
    async read(offset, length) {
      if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
        throw new RangeError(`invalid read of ${length} bytes at ${offset}`);
      }
      if (offset >= size) {
        hitEnd = true;
        throw new TruncatedSourceError(
          `${objectLocation(store, key)}: the file refers to byte ${offset} but the object is only ${size} bytes long; ` +
            'it is truncated (an interrupted upload or copy?)',
        );
      }
      const end = Math.min(offset + length, size);
      if (end < offset + length) hitEnd = true;
      if (end - offset > maxReadBytes) {
        throw new ImplausibleHeaderError(
          `${objectLocation(store, key)}: the header asks to read ${end - offset} bytes at once ` +
            `(more than ${maxReadBytes}); the file is corrupt or not a header geohub can split`,
        );
      }
      if (end === offset) return new Uint8Array(0);
      const first = Math.floor(offset / blockSize);
      const last = Math.floor((end - 1) / blockSize);
      // Start one GET per run of adjacent blocks that are neither cached nor being fetched.
      let runStart: number | undefined;
      for (let id = first; id <= last + 1; id += 1) {
        const missing = id <= last && !cache.has(id) && !inFlight.has(id);
        if (missing && runStart === undefined) runStart = id;
        if (!missing && runStart !== undefined) {
          fetchRun(runStart, id - 1);
          runStart = undefined;
        }
      }
      // Every block is now cached or in flight: take them all in this same tick, before any
      // eviction can happen, then wait.
      const pending: (Uint8Array | Promise<Uint8Array>)[] = [];
      for (let id = first; id <= last; id += 1) {
        const cached = cache.get(id);
        if (cached) remember(id, cached);
        pending.push(cached ?? inFlight.get(id)!);
      }
      const blocks = await Promise.all(pending);
      const out = new Uint8Array(end - offset);
      let at = 0;
      for (let i = 0; i < blocks.length; i += 1) {
        const blockStart = (first + i) * blockSize;
        const from = Math.max(offset - blockStart, 0);
        const to = Math.min(end - blockStart, blocks[i]!.byteLength);
        out.set(blocks[i]!.subarray(from, to), at);
        at += to - from;
      }
      return out;
    },
  };
}
