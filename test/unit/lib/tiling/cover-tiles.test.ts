import { describe, expect, it } from 'vitest';
import { coverTiles } from '../../../../lib/tiling/cover-tiles.js';
import { tileCount } from '../../../../lib/tiling/tile-range.js';

const range = { z: 10, minX: 100, maxX: 109, minY: 200, maxY: 206 };

describe('coverTiles', () => {
  it('yields every tile of the range exactly once, whatever the block size', () => {
    for (const block of [1, 3, 4, 16]) {
      const keys = [...coverTiles(range, block)].map((t) => `${t.z}/${t.x}/${t.y}`);
      expect(keys).toHaveLength(tileCount(range));
      expect(new Set(keys).size).toBe(tileCount(range));
    }
  });

  it('yields row-major order with block size 1', () => {
    const first = [...coverTiles(range)].slice(0, 11);
    expect(first.map((t) => [t.x, t.y])).toEqual([
      ...Array.from({ length: 10 }, (_, i) => [100 + i, 200]),
      [100, 201],
    ]);
  });

  it('keeps each block of 4×4 together so consecutive tiles are neighbours', () => {
    const tiles = [...coverTiles(range, 4)];
    const firstBlock = tiles.slice(0, 16);
    expect(Math.max(...firstBlock.map((t) => t.x)) - Math.min(...firstBlock.map((t) => t.x))).toBe(3);
    expect(Math.max(...firstBlock.map((t) => t.y)) - Math.min(...firstBlock.map((t) => t.y))).toBe(3);
    // The right-hand block of the first block row is clipped to the range: 2 columns × 4 rows.
    expect(tiles.slice(32, 40).every((t) => t.x >= 108 && t.y <= 203)).toBe(true);
  });

  it('is lazy: taking the first tile of a huge range does not enumerate it', () => {
    const huge = { z: 24, minX: 0, maxX: 2 ** 24 - 1, minY: 0, maxY: 2 ** 24 - 1 };
    const first = coverTiles(huge, 4).next();
    expect(first.value).toEqual({ z: 24, x: 0, y: 0 });
  });
});
