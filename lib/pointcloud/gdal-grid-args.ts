import type { Bounds } from '../tiling/tile-bounds.js';
import { NODATA, TILE_PIXELS } from './dtm-grid.js';

/** Neighbours weighted per pixel: the nearest few carry nearly all the weight at power 2. */
export const MAX_NEIGHBOURS = 12;

export interface GdalGridOptions {
  /** The OGR VRT of the points (reprojected to EPSG:3857 by the VRT itself) and its layer. */
  readonly vrt: string;
  readonly layer: string;
  readonly bounds: Bounds;
  readonly radius: number;
  readonly power: number;
  readonly output: string;
}

/**
 * The gdal_grid argv of one DTM tile: inverse distance weighting to a power over the nearest
 * neighbours within the radius (`invdistnn`, which searches a quad-tree, where plain `invdist`
 * visits every point for every pixel), 256×256 over exactly the tile, Float32, nodata -9999,
 * DEFLATE, GTiff named explicitly (the output is a .part path).
 *
 * -tye takes the south edge first, as documented; GDAL 3.6 then writes north-up whenever there
 * are points (the operation checks the result: with no points it would not, which is why an
 * empty tile is never made with gdal_grid).
 */
export function gdalGridArgs(options: GdalGridOptions): string[] {
  const { minX, minY, maxX, maxY } = options.bounds;
  const algorithm = [
    'invdistnn',
    `power=${options.power}`,
    `radius=${options.radius}`,
    `max_points=${MAX_NEIGHBOURS}`,
    'min_points=1',
    `nodata=${NODATA}`,
  ].join(':');
  return [
    '-q',
    '-of',
    'GTiff',
    '-ot',
    'Float32',
    '-co',
    'COMPRESS=DEFLATE',
    '-a_srs',
    'EPSG:3857',
    '-l',
    options.layer,
    '-a',
    algorithm,
    '-txe',
    String(minX),
    String(maxX),
    '-tye',
    String(minY),
    String(maxY),
    '-outsize',
    String(TILE_PIXELS),
    String(TILE_PIXELS),
    options.vrt,
    options.output,
  ];
}
