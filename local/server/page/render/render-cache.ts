import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';

export interface CachedFile {
  readonly file: string;
  readonly bytes: number;
}

export interface RenderCache {
  /** The server's own directory: renders are written here, then adopted by `put`. */
  readonly dir: string;
  get(key: string): CachedFile | undefined;
  /** Takes ownership of `file` (already in `dir`); the least recently used files go past the cap. */
  put(key: string, file: CachedFile): void;
  /** Total bytes held. */
  readonly bytes: number;
  /** Deletes the directory and everything in it. */
  close(): void;
}

/**
 * Rendered PNGs on disk, bounded by their total size: evicting an entry deletes its file. The
 * directory is the server's own (mkdtemp), so nothing else is ever deleted, and it goes on close.
 */
export function createRenderCache(maxBytes: number, parent = tmpdir()): RenderCache {
  const dir = mkdtempSync(join(parent, 'geohub-render-'));
  const lru = new LRUCache<string, CachedFile>({
    maxSize: maxBytes,
    sizeCalculation: (f) => Math.max(1, f.bytes),
    // Every render has a file name of its own, so a replaced or evicted entry's file is garbage.
    dispose: (f) => {
      try {
        unlinkSync(f.file);
      } catch {
        // already gone (close() removed the directory)
      }
    },
  });
  let closed = false;
  return {
    dir,
    get: (key) => lru.get(key),
    put(key, file) {
      if (closed || file.bytes > maxBytes) {
        rmSync(file.file, { force: true });
        return;
      }
      lru.set(key, file);
    },
    get bytes() {
      return lru.calculatedSize;
    },
    close() {
      closed = true;
      lru.clear();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
