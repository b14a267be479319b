import type { Bounds } from '../tiling/tile-bounds.js';
import { gtiffWarpArgv, mercatorGridArgs } from '../tiling/warp-args.js';
import { NODATA, TILE_PIXELS } from './dtm-grid.js';

/**
 * The gdalwarp argv that turns a tile written south-up (positive row step) into the same tile
 * north-up: the same 256×256 grid over the same bounds, nearest neighbour, so every value is
 * moved, none resampled. gdal_grid's orientation has varied across GDAL versions and code paths
 * (3.6 writes south-up when a layer has no points); gdalwarp always writes north-up.
 */
export function northUpWarpArgs(source: string, bounds: Bounds, output: string): string[] {
  const nodata = String(NODATA);
  return gtiffWarpArgv(
    [
      ...mercatorGridArgs(bounds, TILE_PIXELS, TILE_PIXELS),
      '-r',
      'near',
      '-srcnodata',
      nodata,
      '-dstnodata',
      nodata,
    ],
    source,
    output,
  );
}
