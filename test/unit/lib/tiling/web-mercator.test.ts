import { describe, expect, it } from 'vitest';
import { MERCATOR_HALF_WORLD } from '../../../../lib/tiling/tile-bounds.js';
import { ORIGIN_SHIFT, resolutionAt, tileSizeAt } from '../../../../lib/tiling/web-mercator.js';

describe('web mercator grid', () => {
  it('agrees with the tile bounds the workers use', () => {
    expect(ORIGIN_SHIFT).toBe(MERCATOR_HALF_WORLD);
  });

  it('has the well-known zoom-0 resolution and halves it per zoom', () => {
    expect(resolutionAt(0)).toBeCloseTo(156543.03392804097, 8);
    expect(tileSizeAt(1)).toBe(ORIGIN_SHIFT);
    expect(resolutionAt(14)).toBeCloseTo(9.554628535647032, 12);
  });
});
