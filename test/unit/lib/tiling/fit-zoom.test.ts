import { describe, expect, it } from 'vitest';
import { fitOneTileZoom } from '../../../../lib/tiling/fit-zoom.js';
import { tileSizeAt } from '../../../../lib/tiling/web-mercator.js';

describe('fitOneTileZoom', () => {
  it('is the deepest zoom whose one tile is as wide as the footprint, as gdal2tiles.py picks its lowest level', () => {
    // Exactly one z12 tile wide: zoom 12; a hair wider: 11.
    const z12 = tileSizeAt(12);
    expect(fitOneTileZoom([0, 0, z12, z12 / 2], 20)).toBe(12);
    expect(fitOneTileZoom([0, 0, z12 * 1.001, z12 / 2], 20)).toBe(11);
    // The taller side decides.
    expect(fitOneTileZoom([0, 0, z12 / 8, z12 * 3], 20)).toBe(10);
    // Never past the base level, never below 0.
    expect(fitOneTileZoom([0, 0, 1, 1], 9)).toBe(9);
    expect(fitOneTileZoom([-2e7, -2e7, 2e7, 2e7], 9)).toBe(0);
  });
});
