import { describe, expect, it } from 'vitest';
import { rasterXyzArgs } from '../../../../lib/operations/raster-xyz.js';
import { northUpWarpArgs } from '../../../../lib/pointcloud/north-up-warp-args.js';
import { tileBounds } from '../../../../lib/tiling/tile-bounds.js';

// The two gdalwarp commands geohub runs, spelled out: both build on lib/tiling/warp-args.ts.
describe('gdalwarp argv', () => {
  const b = tileBounds(1, 0, 0);
  const grid = ['-t_srs', 'EPSG:3857', '-te', String(b.minX), String(b.minY), String(b.maxX), String(b.maxY)];
  // Quiet, GeoTIFF, the tile's grid at 256 × 256.
  const head = ['-q', '-of', 'GTiff', ...grid, '-ts', '256', '256'];

  it("the raster default: one 256×256 EPSG:3857 tile, bilinear, GDAL's approximate transformer, DEFLATE", () => {
    const tile = { id: 't', z: 1, x: 0, y: 0 };
    expect(rasterXyzArgs({ source: 'in.tif', tile, params: {}, output: 'out.part', scratch: '/s' })).toEqual([
      ...head,
      '-r',
      'bilinear',
      '-dstnodata',
      '-9999',
      '-et',
      '0.125',
      '-co',
      'COMPRESS=DEFLATE',
      'in.tif',
      'out.part',
    ]);
  });

  it('a job that asks for the exact transformer gets -et 0; an unknown one never reaches argv', () => {
    const tile = { id: 't', z: 1, x: 0, y: 0 };
    const ctx = { source: 'in.tif', tile, output: 'out.part', scratch: '/s' };
    const exact = rasterXyzArgs({ ...ctx, params: { transformer: 'exact' } });
    expect(exact.slice(exact.indexOf('-et'), exact.indexOf('-et') + 2)).toEqual(['-et', '0']);
    for (const transformer of ['-et', 'constructor', 'toString'])
      expect(() => rasterXyzArgs({ ...ctx, params: { transformer } })).toThrow(
        `unknown transformer ${transformer}`,
      );
  });

  it('the DTM turned north-up: the same grid, nearest neighbour, nodata kept', () => {
    expect(northUpWarpArgs('south-up.tif', b, 'out.part')).toEqual([
      ...head,
      '-r',
      'near',
      '-srcnodata',
      '-9999',
      '-dstnodata',
      '-9999',
      '-co',
      'COMPRESS=DEFLATE',
      'south-up.tif',
      'out.part',
    ]);
  });
});
