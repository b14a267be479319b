import { describe, expect, it } from 'vitest';
import { gdalGridArgs, MAX_NEIGHBOURS } from '../../../../lib/pointcloud/gdal-grid-args.js';
import { tileBounds } from '../../../../lib/tiling/tile-bounds.js';

const bounds = tileBounds(17, 20727, 47634);
const args = gdalGridArgs({
  vrt: '/scratch/work-1/points.vrt',
  layer: 'points',
  bounds,
  radius: 9.5,
  power: 2,
  output: '/scratch/out/47634.tif.ab12.part',
});
const valuesOf = (flag: string, n = 1) => args.slice(args.indexOf(flag) + 1, args.indexOf(flag) + 1 + n);

describe('gdalGridArgs', () => {
  it('grids 256×256 over exactly the tile, south edge first as gdal_grid documents -tye', () => {
    expect(valuesOf('-txe', 2)).toEqual([String(bounds.minX), String(bounds.maxX)]);
    expect(valuesOf('-tye', 2)).toEqual([String(bounds.minY), String(bounds.maxY)]);
    expect(valuesOf('-outsize', 2)).toEqual(['256', '256']);
  });

  it('writes Float32 GTiff (named: the output is a .part), DEFLATE, EPSG:3857', () => {
    expect(valuesOf('-of')).toEqual(['GTiff']);
    expect(valuesOf('-ot')).toEqual(['Float32']);
    expect(valuesOf('-co')).toEqual(['COMPRESS=DEFLATE']);
    expect(valuesOf('-a_srs')).toEqual(['EPSG:3857']);
    expect(args.slice(-2)).toEqual(['/scratch/work-1/points.vrt', '/scratch/out/47634.tif.ab12.part']);
  });

  it('interpolates by inverse distance over the nearest neighbours within the radius, nodata -9999', () => {
    expect(valuesOf('-a')).toEqual([
      `invdistnn:power=2:radius=9.5:max_points=${MAX_NEIGHBOURS}:min_points=1:nodata=-9999`,
    ]);
    expect(valuesOf('-l')).toEqual(['points']);
  });

  it('is an argv array: no shell, no value starting with a dash where a value is expected', () => {
    for (const flag of ['-l', '-a', '-of', '-ot']) expect(valuesOf(flag)[0]).not.toMatch(/^-/);
  });
});
