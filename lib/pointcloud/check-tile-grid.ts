import { TileGridMismatchError } from '../operations/errors.js';
import type { Bounds } from '../tiling/tile-bounds.js';
import { TILE_PIXELS } from './dtm-grid.js';
import type { RasterGrid } from './read-raster-grid.js';

/** Georeferencing may differ from the tile's by float rounding only: a millionth of a pixel. */
const TOLERANCE_PIXELS = 1e-6;

/**
 * Whether a raster is exactly the tile's grid: 256×256 over `bounds`. `north-up` when it is;
 * `south-up` when it covers the tile upside down (gdal_grid has done that: the caller warps it
 * north-up); anything else throws TileGridMismatchError, since uploading it would put wrong
 * pixels on the map.
 */
export function checkTileGrid(grid: RasterGrid, bounds: Bounds): 'north-up' | 'south-up' {
  const [x0, dx, rx, y0, ry, dy] = grid.geoTransform;
  const cell = (bounds.maxX - bounds.minX) / TILE_PIXELS;
  const near = (a: number, b: number) => Math.abs(a - b) <= TOLERANCE_PIXELS * cell;
  const describe = () =>
    `${grid.width}×${grid.height}, geotransform [${grid.geoTransform.join(', ')}]; the tile is ` +
    `${TILE_PIXELS}×${TILE_PIXELS} over [${bounds.minX}, ${bounds.minY}, ${bounds.maxX}, ${bounds.maxY}]`;
  const square = grid.width === TILE_PIXELS && grid.height === TILE_PIXELS && rx === 0 && ry === 0;
  const columns = near(x0, bounds.minX) && near(x0 + dx * TILE_PIXELS, bounds.maxX);
  if (square && columns && near(y0, bounds.maxY) && near(y0 + dy * TILE_PIXELS, bounds.minY))
    return 'north-up';
  if (square && columns && near(y0, bounds.minY) && near(y0 + dy * TILE_PIXELS, bounds.maxY))
    return 'south-up';
  throw new TileGridMismatchError(`the raster written is not the tile's grid: ${describe()}`);
}
