import { describe, expect, it } from 'vitest';
import { manifestIndexKey, manifestRefSchema } from '../../../../lib/manifest/manifest-ref.js';
import { writeManifest } from '../../../../lib/manifest/write-manifest.js';
import { tileIdFor } from '../../../../lib/model/ids.js';
import { coverMetatiles } from '../../../../lib/split/group-metatiles.js';
import type { ObjectStore } from '../../../../lib/store/object-store.js';
import { createMemoryStore } from '../../../support/memory-store.js';

const options = { runId: 'r-0123456789abcdef0123' };
const range = { z: 12, minX: 0, maxX: 9, minY: 0, maxY: 9 };
/** The range as metatiles of `perLine` sub-tiles, as split writes them. */
const metatiles = (perLine = 1) =>
  coverMetatiles([range], (t) => tileIdFor(options.runId, 'raster-xyz', 'abc', t), perLine);

describe('writeManifest', () => {
  it('writes parts of at most partLines lines and an index that validates', async () => {
    const store = createMemoryStore();
    const ref = await writeManifest(store, metatiles(), { ...options, partLines: 30 });
    expect(ref.total).toBe(100);
    expect(ref.parts.map((p) => p.tiles)).toEqual([30, 30, 30, 10]);
    expect(manifestRefSchema.parse(JSON.parse(await store.getText(manifestIndexKey(options.runId))))).toEqual(
      ref,
    );
    const last = await store.getText(ref.parts[3]!.key);
    expect(last.endsWith('\n')).toBe(true);
    expect(last.split('\n')).toHaveLength(11);
  });

  it('counts sub-tiles per part when a line is a metatile of many', async () => {
    const store = createMemoryStore();
    const ref = await writeManifest(store, metatiles(16), { ...options, partLines: 4 });
    // 10 × 10 in 4×4 blocks: 9 blocks of 16, 4, 16, 4, … tiles; 4 lines a part.
    expect(ref.total).toBe(100);
    expect(ref.parts).toHaveLength(3);
    expect(ref.parts.map((p) => p.tiles).reduce((a, b) => a + b)).toBe(100);
  });

  it('writes an empty manifest for no tiles', async () => {
    const store = createMemoryStore();
    const ref = await writeManifest(store, [], options);
    expect(ref).toEqual({ runId: options.runId, total: 0, parts: [] });
  });

  it('keeps at most one part upload in flight', async () => {
    const memory = createMemoryStore();
    let inFlight = 0;
    let most = 0;
    const slow: ObjectStore = {
      ...memory,
      async putText(key, body, o) {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight -= 1;
        return memory.putText(key, body, o);
      },
    };
    await writeManifest(slow, metatiles(), { ...options, partLines: 10 });
    expect(most).toBe(1);
  });

  it('fails when a part upload fails', async () => {
    const memory = createMemoryStore();
    const failing: ObjectStore = { ...memory, putText: async () => Promise.reject(new Error('SlowDown')) };
    await expect(writeManifest(failing, metatiles(), { ...options, partLines: 10 })).rejects.toThrow(
      'SlowDown',
    );
  });
});
