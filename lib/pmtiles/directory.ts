import { pushVarint } from './varint.js';

/** A PMTiles directory entry: a run of tiles, or (run length 0) a leaf directory. */
export interface DirectoryEntry {
  readonly tileId: number;
  readonly offset: number;
  readonly length: number;
  readonly runLength: number;
}

/**
 * A directory as the PMTiles v3 spec lays it out, uncompressed: the entry count, then each
 * column in turn — tile ids as deltas, run lengths, lengths, and offsets (0 where an entry
 * follows the previous one's bytes, else offset + 1). Entries are in tile id order.
 */
export function serializeDirectory(entries: readonly DirectoryEntry[]): Uint8Array {
  const out: number[] = [];
  pushVarint(out, entries.length);
  let last = 0;
  for (const e of entries) {
    pushVarint(out, e.tileId - last);
    last = e.tileId;
  }
  for (const e of entries) pushVarint(out, e.runLength);
  for (const e of entries) pushVarint(out, e.length);
  entries.forEach((e, i) => {
    const previous = entries[i - 1];
    pushVarint(out, previous && e.offset === previous.offset + previous.length ? 0 : e.offset + 1);
  });
  return Uint8Array.from(out);
}
