import { gzipSync } from 'node:zlib';
import { type DirectoryEntry, serializeDirectory } from './directory.js';
import { HEADER_BYTES } from './header.js';

/** A client's first read is 16 KiB: the header and the root directory must fit in it. */
const ROOT_MAX_BYTES = 16_384 - HEADER_BYTES;

export interface Directories {
  readonly root: Uint8Array;
  /** The leaf directories, back to back (empty when the root holds every entry). */
  readonly leaves: Uint8Array;
  readonly leafCount: number;
}

const compressed = (entries: readonly DirectoryEntry[]) => gzipSync(serializeDirectory(entries));

/**
 * The root directory, and leaf directories when the root cannot hold every entry within the
 * first 16 KiB: leaves of `leafSize` entries, the root pointing at each (run length 0), the
 * leaves grown by a fifth until the root fits — as the spec's reference writer does. Gzip, as
 * every reader decompresses it.
 */
export function buildDirectories(entries: readonly DirectoryEntry[]): Directories {
  const root = compressed(entries);
  if (root.length <= ROOT_MAX_BYTES) return { root, leaves: new Uint8Array(0), leafCount: 0 };
  let leafSize = Math.max(4_096, Math.ceil(entries.length / 3_500));
  for (;;) {
    const rootEntries: DirectoryEntry[] = [];
    const leaves: Uint8Array[] = [];
    let offset = 0;
    for (let i = 0; i < entries.length; i += leafSize) {
      const slice = entries.slice(i, i + leafSize);
      const leaf = compressed(slice);
      rootEntries.push({ tileId: slice[0]!.tileId, offset, length: leaf.length, runLength: 0 });
      leaves.push(leaf);
      offset += leaf.length;
    }
    const rootBytes = compressed(rootEntries);
    if (rootBytes.length <= ROOT_MAX_BYTES) {
      return { root: rootBytes, leaves: Buffer.concat(leaves), leafCount: leaves.length };
    }
    leafSize = Math.ceil(leafSize * 1.2);
  }
}
