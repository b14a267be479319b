import { PMTiles, type Source } from 'pmtiles';
import { describe, expect, it } from 'vitest';
import { TileSet } from '../../../../lib/coordination/tile-set.js';
import { tileOutputKey } from '../../../../lib/model/ids.js';
import { writePmtiles } from '../../../../lib/pmtiles/write-pmtiles.js';
import { createMemoryStore } from '../../../support/memory-store.js';

/** The archive as the official decoder reads it: ranges of the object. */
function archiveSource(bytes: Uint8Array): Source {
  return {
    getKey: () => 'archive',
    getBytes: async (offset, length) => ({
      data: bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + length) as ArrayBuffer,
    }),
  };
}

/** Tiles of `side` × `side` at zoom `z` from (x0, y0) and the level below, each a few distinct bytes. */
function pyramid(store: ReturnType<typeof createMemoryStore>, runId: string, z: number, side: number) {
  const levels = [new TileSet(), new TileSet()];
  const contents = new Map<string, Uint8Array>();
  let seed = 7;
  const random = () => {
    seed = (seed * 48_271) % 2_147_483_647;
    return seed;
  };
  const add = (level: TileSet, zz: number, x: number, y: number) => {
    // Sizes that do not repeat: the directories do not compress to nothing.
    const bytes = Uint8Array.from({ length: 1 + (random() % 300) }, () => random() % 256);
    const key = tileOutputKey(runId, { z: zz, x, y }, 'png');
    store.putBytes(key, bytes);
    contents.set(`${zz}/${x}/${y}`, bytes);
    level.add(zz, x, y, bytes.length);
  };
  for (let y = 0; y < side; y++) for (let x = 0; x < side; x++) add(levels[0]!, z, 1000 + x, 2000 + y);
  for (let y = 0; y < side / 2; y++)
    for (let x = 0; x < side / 2; x++) add(levels[1]!, z - 1, 500 + x, 1000 + y);
  return { levels, contents };
}

describe('writePmtiles', () => {
  it('writes an archive the pmtiles decoder reads, every tile equal to its object, leaf directories and all', async () => {
    const store = createMemoryStore();
    const runId = 'r-pmtiles-test';
    const { levels, contents } = pyramid(store, runId, 14, 120);
    const written = await writePmtiles(store, 'runs/r/tiles.pmtiles', {
      runId,
      levels,
      format: 'png',
      name: 'test',
      description: 'a test archive',
    });
    expect(written.tiles).toBe(120 * 120 + 60 * 60);
    // 18,000 entries do not fit a 16 KiB root: the root points at leaves.
    expect(written.leaves).toBeGreaterThan(1);
    const bytes = new Uint8Array(await store.getRange('runs/r/tiles.pmtiles', 0, written.bytes - 1));
    expect(bytes.byteLength).toBe(written.bytes);
    const archive = new PMTiles(archiveSource(bytes));
    const header = await archive.getHeader();
    expect(header).toMatchObject({
      specVersion: 3,
      minZoom: 13,
      maxZoom: 14,
      numAddressedTiles: written.tiles,
      clustered: true,
    });
    expect(await archive.getMetadata()).toMatchObject({ name: 'test', format: 'png' });
    let checked = 0;
    for (const [name, want] of contents) {
      const [z, x, y] = name.split('/').map(Number) as [number, number, number];
      const tile = await archive.getZxy(z, x, y);
      expect(tile && new Uint8Array(tile.data), name).toEqual(want);
      checked++;
    }
    expect(checked).toBe(written.tiles);
    // A tile not in the run is not in the archive.
    expect(await archive.getZxy(14, 999, 2000)).toBeUndefined();
  }, 120_000);

  it('refuses a tile whose object is not the size its marker says, rather than write a corrupt archive', async () => {
    const store = createMemoryStore();
    const level = new TileSet();
    store.putBytes(tileOutputKey('r-x', { z: 3, x: 1, y: 1 }, 'webp'), new Uint8Array(10));
    level.add(3, 1, 1, 11);
    await expect(
      writePmtiles(store, 'runs/r/t.pmtiles', {
        runId: 'r-x',
        levels: [level],
        format: 'webp',
        name: 'n',
        description: 'd',
      }),
    ).rejects.toThrow(/tile 3\/1\/1 is 10 bytes; its marker says 11/);
  });
});
