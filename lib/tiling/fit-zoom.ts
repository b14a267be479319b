import type { Bbox } from './bbox.js';
import { resolutionAt } from './web-mercator.js';

/**
 * The zoom at which a footprint fits in one tile, as gdal2tiles.py chooses its lowest level: the
 * deepest zoom whose resolution is at least the footprint's larger side over 256 pixels
 * (its `ZoomForPixelSize`), never past `maxZoom`. A pyramid of display tiles goes down to it by
 * default.
 */
export function fitOneTileZoom(bbox3857: Bbox, maxZoom: number): number {
  const side = Math.max(bbox3857[2] - bbox3857[0], bbox3857[3] - bbox3857[1]) / 256;
  let z = 0;
  while (z < maxZoom && resolutionAt(z + 1) >= side) z += 1;
  return z;
}
