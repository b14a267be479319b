import { describe, expect, it } from 'vitest';
import { ManifestCorruptError } from '../../../../lib/manifest/errors.js';
import {
  LINE_BYTES,
  type ManifestChunk,
  readManifestChunk,
} from '../../../../lib/manifest/read-manifest-chunk.js';
import { countingStore } from '../../../support/counting-store.js';
import { createMemoryStore } from '../../../support/memory-store.js';

const hex = (n: number) => n.toString(16).padStart(16, '0');
/** One metatile line of one sub-tile at column x. */
const line = (x: number) => JSON.stringify({ id: hex(x + 1000), tiles: [{ id: hex(x), z: 10, x, y: 5 }] });
const xs = (chunk: ManifestChunk) => chunk.metatiles.map((m) => m.tiles[0]!.x);

function partWith(text: string) {
  const memory = createMemoryStore();
  memory.putBytes('p', new Uint8Array(Buffer.from(text)));
  const { store, counts } = countingStore(memory);
  return { store, counts, part: { key: 'p', tiles: 0, bytes: Buffer.byteLength(text) } };
}

describe('readManifestChunk', () => {
  const text = `${Array.from({ length: 100 }, (_, i) => line(i)).join('\n')}\n`;

  it('reads up to maxLines metatiles and says where the next line starts', async () => {
    const { store, part, counts } = partWith(text);
    const first = await readManifestChunk(store, part, 0, 30);
    expect(xs(first)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    const second = await readManifestChunk(store, part, first.nextOffset, 80);
    expect(xs(second)).toEqual(Array.from({ length: 70 }, (_, i) => 30 + i));
    expect(second.nextOffset).toBe(part.bytes);
    // Each line's end: a read resuming there starts at the next tile.
    expect(first.lineEnds).toHaveLength(30);
    expect(first.lineEnds.at(-1)).toBe(first.nextOffset);
    const resumed = await readManifestChunk(store, part, first.lineEnds[9]!, 1);
    expect(xs(resumed)).toEqual([10]);
    expect(counts.rangedGets).toBe(3);
    expect(counts.wholeGets).toBe(0);
  });

  it('reads at most maxLines × LINE_BYTES bytes per call', async () => {
    const long = `${Array.from({ length: 100 }, (_, i) => line(i).padEnd(900, ' ')).join('\n')}\n`;
    const { store, part, counts } = partWith(long);
    const chunk = await readManifestChunk(store, part, 0, 10);
    expect(chunk.metatiles).toHaveLength(10);
    expect(counts.bytesRead).toBe(10 * LINE_BYTES);
  });

  it('reads a line longer than the budget (a metatile over many members) with a second, bounded read', async () => {
    const members = Array.from({ length: 400 }, (_, i) => i);
    const wide = `${JSON.stringify({ id: hex(1), tiles: [{ id: hex(2), z: 10, x: 3, y: 5 }], members })}\n${line(4)}\n`;
    const { store, part, counts } = partWith(wide);
    const chunk = await readManifestChunk(store, part, 0, 1);
    expect(chunk.metatiles[0]!.members).toEqual(members);
    expect(chunk.nextOffset).toBe(wide.indexOf('\n') + 1);
    expect(counts.rangedGets).toBe(2);
  });

  it('returns nothing at the end of the part', async () => {
    const { store, part } = partWith(text);
    expect(await readManifestChunk(store, part, part.bytes, 10)).toEqual({
      metatiles: [],
      nextOffset: part.bytes,
      lineEnds: [],
    });
  });

  it('names the byte offset of a corrupt line', async () => {
    const bad = `${line(0)}\n{"id":"zz","tiles":[]}\n`;
    const { store, part } = partWith(bad);
    await expect(readManifestChunk(store, part, 0, 10)).rejects.toThrow(ManifestCorruptError);
    await expect(readManifestChunk(store, part, 0, 10)).rejects.toThrow(
      `p: the line at byte ${line(0).length + 1} is not a metatile: id:`,
    );
    const { store: s2, part: p2 } = partWith('not json\n');
    await expect(readManifestChunk(s2, p2, 0, 10)).rejects.toThrow('p: the line at byte 0 is not JSON');
  });

  it('fails when a part is shorter than its reference says, or has no newline', async () => {
    const { store, part } = partWith(text);
    await expect(
      readManifestChunk(store, { ...part, bytes: part.bytes + 10 }, part.bytes - 5, 10),
    ).rejects.toThrow(/got 5 \(the part is not/);
    const { store: s2, part: p2 } = partWith(line(1));
    await expect(readManifestChunk(s2, p2, 0, 10)).rejects.toThrow(
      /no complete line within \d+ bytes of byte 0/,
    );
  });
});
