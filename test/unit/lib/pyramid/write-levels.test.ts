import { describe, expect, it } from 'vitest';
import { tileIdFor } from '../../../../lib/model/ids.js';
import { type Metatile, metatileSchema } from '../../../../lib/model/metatile.js';
import { PyramidPlanError } from '../../../../lib/pyramid/errors.js';
import { readParentLines } from '../../../../lib/pyramid/parent-lines.js';
import { alignedMetatiles } from '../../../../lib/pyramid/pyramid-plan.js';
import { writeLevels } from '../../../../lib/pyramid/write-levels.js';
import type { TileCoord } from '../../../../lib/tiling/tile-coord.js';
import { createMemoryStore } from '../../../support/memory-store.js';

const runId = 'r-pyramid-test';
const tileId = (t: TileCoord) => tileIdFor(runId, 'raster-xyz', 'v1', t);

async function pyramid(tilesPerMessage: number, partLines = 3) {
  const store = createMemoryStore();
  // 11 × 6 tiles at zoom 12 from an odd corner, down to zoom 8 (one tile).
  const base = [[{ z: 12, minX: 1203, minY: 1541, maxX: 1213, maxY: 1546 }]];
  const plan = { minZoom: 8, maxZoom: 12, base, tilesPerMessage };
  const written = await writeLevels(store, plan, { runId, tileId, partLines });
  const lower: Metatile[] = [];
  for (const part of written.levels.parts)
    for (const line of (await store.getText(part.key)).trimEnd().split('\n'))
      lower.push(metatileSchema.parse(JSON.parse(line)) as Metatile);
  const baseLevel = [...alignedMetatiles(base, 12, tileId, tilesPerMessage)];
  return { store, written, lower, baseLevel };
}

describe('a pyramid manifest', () => {
  it.each([16, 1])(
    'links every metatile to its parent and each parent to all its children (%i tiles a message)',
    async (tpm) => {
      const { store, written, lower, baseLevel } = await pyramid(tpm);
      const linkedBase = baseLevel.map((m) => written.linkBase(m));
      written.checkBaseComplete();
      const all = [...lower, ...linkedBase];
      const byId = new Map(all.map((m) => [m.id, m]));
      const zooms = new Set(lower.map((m) => m.tiles[0]!.z));
      expect(zooms).toEqual(new Set([8, 9, 10, 11]));
      // The top level has no parent; every other metatile's `up` reads back its parent's lines.
      for (const m of all) {
        const z = m.tiles[0]!.z;
        if (z === 8) {
          expect(m.up).toBeUndefined();
          continue;
        }
        const parents = await readParentLines(store, runId, m.up!);
        expect(parents).toHaveLength(m.up!.lines);
        for (const parent of parents) {
          expect(parent.tiles.every((t) => t.z === z - 1)).toBe(true);
          expect(parent.children).toContain(m.id);
        }
        // Each of its tiles' parent tile is in one of those lines.
        const parentTiles = new Set(parents.flatMap((p) => p.tiles.map((t) => `${t.x}/${t.y}`)));
        for (const t of m.tiles)
          expect(parentTiles).toContain(`${Math.floor(t.x / 2)}/${Math.floor(t.y / 2)}`);
      }
      // Every child a parent waits for exists, one level up, and its tiles halve into the parent's block.
      for (const parent of lower) {
        for (const id of parent.children!) expect(byId.get(id)?.tiles[0]?.z).toBe(parent.tiles[0]!.z + 1);
      }
      // Tiles per level, each the parents of the level above: x 1203-1213 × y 1541-1546 at 12,
      // 601-606 × 770-773 at 11, 300-303 × 385-386 at 10, 150-151 × 192-193 at 9, one at 8.
      const count = (z: number) =>
        all.filter((m) => m.tiles[0]!.z === z).reduce((n, m) => n + m.tiles.length, 0);
      expect([12, 11, 10, 9, 8].map(count)).toEqual([66, 24, 8, 4, 1]);
      expect(written.levels).toMatchObject({ minZoom: 8, maxZoom: 12 });
    },
  );

  it('refuses a base metatile no parent expects, and a base short of one a parent waits for', async () => {
    const { written, baseLevel } = await pyramid(16);
    const stranger: Metatile = {
      id: 'ffffffffffffffff',
      tiles: [{ id: tileId({ z: 12, x: 0, y: 0 }), z: 12, x: 0, y: 0 }],
    };
    expect(() => written.linkBase(stranger)).toThrow(PyramidPlanError);
    for (const m of baseLevel.slice(1)) written.linkBase(m);
    expect(() => written.checkBaseComplete()).toThrow(/1 metatiles the lower levels wait for/);
  });
});
