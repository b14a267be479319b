import type { Bounds } from '../tiling/tile-bounds.js';
import { NODATA, TILE_PIXELS } from './dtm-grid.js';

/**
 * The gdal_create argv of a tile with nothing to interpolate (outside the cloud, or no ground
 * there): a valid 256×256 Float32 EPSG:3857 GeoTIFF over exactly the tile, every pixel nodata,
 * north-up, DEFLATE. The tile exists like any other, so a mosaic has no holes and the run no
 * failures for a tile that is simply empty.
 */
export function emptyTileArgs(bounds: Bounds, output: string): string[] {
  const { minX, minY, maxX, maxY } = bounds;
  return [
    '-q',
    '-of',
    'GTiff',
    '-outsize',
    String(TILE_PIXELS),
    String(TILE_PIXELS),
    '-bands',
    '1',
    '-ot',
    'Float32',
    '-burn',
    String(NODATA),
    '-a_nodata',
    String(NODATA),
    '-a_srs',
    'EPSG:3857',
    '-a_ullr',
    String(minX),
    String(maxY),
    String(maxX),
    String(minY),
    '-co',
    'COMPRESS=DEFLATE',
    output,
  ];
}
