import { describe, expect, it } from 'vitest';
import { MAX_TILES_PER_MESSAGE } from '../../../../lib/model/metatile.js';
import { metatileLayouts } from '../../../../lib/operations/metatile-layout.js';
import { groupMetatiles } from '../../../../lib/split/group-metatiles.js';
import { coverTiles } from '../../../../lib/tiling/cover-tiles.js';

/** A manifest's tiles as split lists them: 4×4 blocks of a cols × rows range. */
const manifestTiles = (cols: number, rows: number, minX = 301, minY = 502) =>
  [...coverTiles({ z: 11, minX, maxX: minX + cols - 1, minY, maxY: minY + rows - 1 }, 4)].map((t) => ({
    id: `${t.x}-${t.y}`,
    ...t,
  }));

describe('groupMetatiles: one message per 4×4 block of the manifest', () => {
  it.each([
    [15, 13, 16],
    [16, 16, 16],
    [23, 19, 30],
    [1, 7, 2],
  ])(
    'a %i × %i cover: every tile once, %i messages, each one rectangle (one GDAL process)',
    (cols, rows, n) => {
      const tiles = manifestTiles(cols, rows);
      const groups = [...groupMetatiles(tiles, MAX_TILES_PER_MESSAGE)];
      expect(groups).toHaveLength(n);
      expect(groups.flatMap((g) => g.tiles.map((t) => t.id))).toEqual(tiles.map((t) => t.id));
      for (const g of groups) {
        expect(g.tiles.length).toBeLessThanOrEqual(16);
        const layouts = metatileLayouts(g.tiles);
        expect(layouts).toHaveLength(1);
        expect(layouts[0]!.cols * layouts[0]!.rows).toBe(g.tiles.length);
      }
    },
  );

  it('fewer tiles per message cut a block into rows, never two blocks into one message', () => {
    const groups = [...groupMetatiles(manifestTiles(6, 5), 4)];
    // Blocks of 4×4, 2×4, 4×1, 2×1: 4 + 2 (2×2 each) + 1 + 1 messages.
    expect(groups.map((g) => g.tiles.length)).toEqual([4, 4, 4, 4, 4, 4, 4, 2]);
    for (const g of groups) expect(metatileLayouts(g.tiles)).toHaveLength(1);
  });

  it('rejects a metatile size outside the model', () => {
    expect(() => [...groupMetatiles(manifestTiles(4, 4), 17)]).toThrow(
      /tilesPerMessage must be an integer in 1..16/,
    );
  });
});
