import { describe, expect, it } from 'vitest';
import { ManifestMissingError } from '../../../../lib/manifest/errors.js';
import {
  allManifestMetatiles,
  allManifestTiles,
  manifestChunks,
  readManifestRef,
} from '../../../../lib/manifest/walk-manifest.js';
import { writeManifest } from '../../../../lib/manifest/write-manifest.js';
import { tileIdFor } from '../../../../lib/model/ids.js';
import { coverMetatiles } from '../../../../lib/split/group-metatiles.js';
import { coverTiles } from '../../../../lib/tiling/cover-tiles.js';
import { createMemoryStore } from '../../../support/memory-store.js';

const options = { runId: 'r-0123456789abcdef0123' };
const range = { z: 12, minX: 0, maxX: 9, minY: 0, maxY: 9 };
/** The range as metatiles of `perLine` sub-tiles, as split writes them. */
const metatiles = (perLine = 1) =>
  coverMetatiles([range], (t) => tileIdFor(options.runId, 'raster-xyz', 'abc', t), perLine);

describe('walking a manifest', () => {
  it('reads every metatile across parts, in manifest order, in reads of the asked size', async () => {
    const store = createMemoryStore();
    await writeManifest(store, metatiles(), { ...options, partLines: 30 });
    const ref = (await readManifestRef(store, options.runId))!;
    const asked: number[] = [];
    const sizes: number[] = [];
    const ids: string[] = [];
    for await (const chunk of manifestChunks(store, ref, (read) => {
      asked.push(read);
      return read < 40 ? 8 : 25;
    })) {
      sizes.push(chunk.length);
      ids.push(...chunk.flatMap((m) => m.tiles.map((t) => `${t.x}/${t.y}`)));
    }
    // A read never crosses a part (30 = 8 + 8 + 8 + 6), and is sized by the count read so far.
    expect(sizes).toEqual([8, 8, 8, 6, 8, 8, 14, 25, 5, 10]);
    expect(asked).toEqual([0, 8, 16, 24, 30, 38, 46, 60, 85, 90]);
    expect(ids).toEqual([...coverTiles(range, 4)].map((t) => `${t.x}/${t.y}`));
    expect(await allManifestTiles(store, options.runId)).toHaveLength(100);
  });

  it('keeps the metatiles split made, members included', async () => {
    const store = createMemoryStore();
    const written = [...metatiles(16)].map((m, i) => ({ ...m, members: [i, i + 1] }));
    await writeManifest(store, written, options);
    expect(await allManifestMetatiles(store, options.runId)).toEqual(written);
  });

  it('a run without a manifest: no index for the page, a clear error for whoever needs every tile', async () => {
    const store = createMemoryStore();
    expect(await readManifestRef(store, 'r-not-split')).toBeUndefined();
    await expect(allManifestTiles(store, 'r-not-split')).rejects.toThrow(ManifestMissingError);
    await expect(allManifestTiles(store, 'r-not-split')).rejects.toThrow(
      'run r-not-split has no manifest (runs/r-not-split/manifest.json)',
    );
  });
});
