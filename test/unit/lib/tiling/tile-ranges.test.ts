import { describe, expect, it } from 'vitest';
import { tileRanges } from '../../../../lib/tiling/tile-ranges.js';
import { ORIGIN_SHIFT, tileSizeAt } from '../../../../lib/tiling/web-mercator.js';

describe('tileRanges', () => {
  const size = tileSizeAt(4);

  it('is one range for a box inside the map', () => {
    expect(tileRanges([0, 0, size, size], 4)).toEqual([{ z: 4, minX: 8, maxX: 8, minY: 7, maxY: 7 }]);
  });

  it('wraps a box past the east edge onto x = 0: tiles on both sides of the antimeridian', () => {
    expect(tileRanges([ORIGIN_SHIFT - size / 2, 0, ORIGIN_SHIFT + size / 2, size], 4)).toEqual([
      { z: 4, minX: 15, maxX: 15, minY: 7, maxY: 7 },
      { z: 4, minX: 0, maxX: 0, minY: 7, maxY: 7 },
    ]);
  });

  it('wraps a box past the west edge onto x = 2^z − 1, east end first', () => {
    expect(tileRanges([-ORIGIN_SHIFT - 1.5 * size, 0, -ORIGIN_SHIFT + size / 2, size], 4)).toEqual([
      { z: 4, minX: 14, maxX: 15, minY: 7, maxY: 7 },
      { z: 4, minX: 0, maxX: 0, minY: 7, maxY: 7 },
    ]);
  });

  it('is one full-width range when the two ends meet (zoom 0, or a box as wide as the world)', () => {
    expect(tileRanges([ORIGIN_SHIFT - 1e6, 0, ORIGIN_SHIFT + 1e6, 1e6], 0)).toEqual([
      { z: 0, minX: 0, maxX: 0, minY: 0, maxY: 0 },
    ]);
    expect(tileRanges([-ORIGIN_SHIFT, 0, ORIGIN_SHIFT, size], 4)).toEqual([
      { z: 4, minX: 0, maxX: 15, minY: 7, maxY: 7 },
    ]);
  });
});
