import { describe, expect, it } from 'vitest';
import type { TileTask } from '../../../../lib/model/tile.js';
import { metatileLayouts } from '../../../../lib/operations/metatile-layout.js';
import { tileBounds } from '../../../../lib/tiling/tile-bounds.js';

const task = (z: number, x: number, y: number): TileTask => ({
  id: `${x}`.padStart(8, '0') + `${y}`.padStart(8, '0'),
  z,
  x,
  y,
});

describe('metatileLayouts', () => {
  it('makes a full 4×4 block one warp over exactly its 16 tiles', () => {
    const tiles = [];
    for (let y = 100; y < 104; y += 1) for (let x = 200; x < 204; x += 1) tiles.push(task(9, x, y));
    const [layout, ...more] = metatileLayouts(tiles);
    expect(more).toEqual([]);
    expect([layout!.cols, layout!.rows]).toEqual([4, 4]);
    const nw = tileBounds(9, 200, 100);
    const se = tileBounds(9, 203, 103);
    expect(layout!.bounds).toEqual({ minX: nw.minX, maxY: nw.maxY, maxX: se.maxX, minY: se.minY });
    expect(layout!.tiles.find((t) => t.tile.x === 202 && t.tile.y === 101)).toMatchObject({ col: 2, row: 1 });
  });

  it('an edge block of 3×2 tiles warps 3×2 tiles, not 4×4', () => {
    const tiles = [
      task(5, 29, 30),
      task(5, 30, 30),
      task(5, 31, 30),
      task(5, 29, 31),
      task(5, 30, 31),
      task(5, 31, 31),
    ];
    const layouts = metatileLayouts(tiles);
    expect(layouts.map((l) => [l.cols, l.rows])).toEqual([[3, 2]]);
  });

  it('what is left of a block (marked tiles skipped) spans only the rectangle of what is left', () => {
    const layouts = metatileLayouts([task(8, 11, 7), task(8, 12, 8)]);
    expect(layouts).toHaveLength(1);
    expect(layouts[0]!.tiles.map((t) => [t.col, t.row])).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });

  it('tiles far apart never make one huge warp: at most 4×4 tiles per process', () => {
    const layouts = metatileLayouts([task(12, 0, 0), task(12, 1000, 0), task(12, 3, 3), task(12, 4, 0)]);
    expect(layouts).toHaveLength(3);
    for (const l of layouts) expect(l.cols * l.rows).toBeLessThanOrEqual(16);
    expect(layouts.flatMap((l) => l.tiles.map((t) => t.tile.x)).sort((a, b) => a - b)).toEqual([
      0, 3, 4, 1000,
    ]);
  });

  it('refuses tiles of different zooms with a clear error', () => {
    expect(() => metatileLayouts([task(3, 1, 1), task(4, 1, 1)])).toThrow(/one zoom/);
  });
});
