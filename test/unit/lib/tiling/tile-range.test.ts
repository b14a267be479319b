import { describe, expect, it } from 'vitest';
import { InvalidTileGridError } from '../../../../lib/tiling/errors.js';
import { tileBounds } from '../../../../lib/tiling/tile-bounds.js';
import { EDGE_TOLERANCE, tileCount, tileRange } from '../../../../lib/tiling/tile-range.js';
import { ORIGIN_SHIFT, tileSizeAt } from '../../../../lib/tiling/web-mercator.js';

const asTuple = (b: { minX: number; minY: number; maxX: number; maxY: number }) =>
  [b.minX, b.minY, b.maxX, b.maxY] as const;

describe('tileRange', () => {
  it('covers the whole world with the one tile of zoom 0 and 4^z tiles at zoom z', () => {
    const world = [-ORIGIN_SHIFT, -ORIGIN_SHIFT, ORIGIN_SHIFT, ORIGIN_SHIFT] as const;
    expect(tileRange(world, 0)).toEqual({ z: 0, minX: 0, minY: 0, maxX: 0, maxY: 0 });
    expect(tileCount(tileRange(world, 5)!)).toBe(4 ** 5);
  });

  it('maps a box equal to one tile to that tile only (touching edges do not count)', () => {
    const bounds = asTuple(tileBounds(12, 836, 1556));
    expect(tileRange(bounds, 12)).toEqual({ z: 12, minX: 836, minY: 1556, maxX: 836, maxY: 1556 });
    expect(tileCount(tileRange(bounds, 14)!)).toBe(16);
  });

  it('ignores a sliver thinner than the tolerance but not one wider', () => {
    const [minX, minY, maxX, maxY] = asTuple(tileBounds(12, 836, 1556));
    const size = tileSizeAt(12);
    const thin = tileRange([minX, minY, maxX + size * EDGE_TOLERANCE * 0.5, maxY], 12)!;
    expect(thin.maxX).toBe(836);
    const wide = tileRange([minX, minY, maxX + size * EDGE_TOLERANCE * 2, maxY], 12)!;
    expect(wide.maxX).toBe(837);
  });

  it('counts rows from the north: a box in the northern hemisphere has y below 2^(z-1)', () => {
    const r = tileRange([1000, 1000, 2000, 2000], 4)!;
    expect(r).toEqual({ z: 4, minX: 8, maxX: 8, minY: 7, maxY: 7 });
  });

  it('clamps a box larger than the world to the world', () => {
    const r = tileRange([-1e9, -1e9, 1e9, 1e9], 2)!;
    expect(r).toEqual({ z: 2, minX: 0, minY: 0, maxX: 3, maxY: 3 });
  });

  it('is empty for a box outside the world, a line or a point', () => {
    expect(tileRange([ORIGIN_SHIFT + 1, 0, ORIGIN_SHIFT + 10, 10], 3)).toBeUndefined();
    expect(tileRange([0, 0, 0, 1000], 3)).toBeUndefined();
    expect(tileRange([5, 5, 5, 5], 3)).toBeUndefined();
  });

  it('rejects a zoom outside the model and a non-finite box', () => {
    expect(() => tileRange([0, 0, 1, 1], 25)).toThrow(InvalidTileGridError);
    expect(() => tileRange([0, 0, 1, 1], 1.5)).toThrow(/zoom 1.5 is not an integer/);
    expect(() => tileRange([0, 0, Number.NaN, 1], 3)).toThrow(/not finite/);
  });
});
