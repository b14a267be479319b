import { describe, expect, it } from 'vitest';
import { TileGridMismatchError } from '../../../../lib/operations/errors.js';
import { checkTileGrid } from '../../../../lib/pointcloud/check-tile-grid.js';
import { tileBounds } from '../../../../lib/tiling/tile-bounds.js';

const b = tileBounds(17, 20727, 47634);
const res = (b.maxX - b.minX) / 256;

describe('checkTileGrid', () => {
  it('accepts the tile north-up, to float rounding', () => {
    const grid = {
      width: 256,
      height: 256,
      geoTransform: [b.minX, res * (1 + 1e-12), 0, b.maxY, 0, -res] as const,
    };
    expect(checkTileGrid(grid, b)).toBe('north-up');
  });

  it('recognises the tile upside down (gdal_grid without points in GDAL 3.6)', () => {
    const grid = { width: 256, height: 256, geoTransform: [b.minX, res, 0, b.minY, 0, res] as const };
    expect(checkTileGrid(grid, b)).toBe('south-up');
  });

  it('refuses any other grid: 257×257, shifted by a pixel, rotated', () => {
    const bad = [
      { width: 257, height: 257, geoTransform: [b.minX, res, 0, b.maxY, 0, -res] as const },
      { width: 256, height: 256, geoTransform: [b.minX + res, res, 0, b.maxY, 0, -res] as const },
      { width: 256, height: 256, geoTransform: [b.minX, res, 1e-3, b.maxY, 0, -res] as const },
    ];
    for (const grid of bad) expect(() => checkTileGrid(grid, b)).toThrow(TileGridMismatchError);
  });
});
