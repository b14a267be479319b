import type { Bounds } from '../tiling/tile-bounds.js';
import { NODATA, TILE_PIXELS } from './dtm-grid.js';

/**
 * The gdalwarp argv that turns a tile written south-up (positive row step) into the same tile
 * north-up: the same 256×256 grid over the same bounds, nearest neighbour, so every value is
 * moved, none resampled. gdal_grid's orientation has varied across GDAL versions and code paths
 * (3.6 writes south-up when a layer has no points); gdalwarp always writes north-up.
 */
export function northUpWarpArgs(source: string, bounds: Bounds, output: string): string[] {
  const { minX, minY, maxX, maxY } = bounds;
  return [
    '-q',
    '-of',
    'GTiff',
    '-t_srs',
    'EPSG:3857',
    '-te',
    String(minX),
    String(minY),
    String(maxX),
    String(maxY),
    '-ts',
    String(TILE_PIXELS),
    String(TILE_PIXELS),
    '-r',
    'near',
    '-srcnodata',
    String(NODATA),
    '-dstnodata',
    String(NODATA),
    '-co',
    'COMPRESS=DEFLATE',
    source,
    output,
  ];
}
