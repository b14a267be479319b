import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * A valid, uncompressed GeoTIFF of `side`² pixels of 16 bits (BigTIFF when over 4 GB), 10 m
 * pixels in EPSG:3857, with overviews so a low-zoom warp reads an overview, not the full
 * resolution. The file's size is about 2·side² bytes plus a third for the overviews.
 */
export function largeRaster(dir: string, side: number): string {
  const file = join(dir, `large-${side}.tif`);
  const half = (side * 10) / 2;
  execFileSync('gdal_create', [
    '-q',
    '-of',
    'GTiff',
    '-co',
    'BIGTIFF=IF_NEEDED',
    '-co',
    'TILED=YES',
    '-outsize',
    String(side),
    String(side),
    '-bands',
    '1',
    '-ot',
    'UInt16',
    '-burn',
    '700',
    '-a_srs',
    'EPSG:3857',
    '-a_ullr',
    String(-half),
    String(half),
    String(half),
    String(-half),
    file,
  ]);
  execFileSync('gdaladdo', ['-q', '-r', 'nearest', file, '4', '16', '64', '256']);
  return file;
}
