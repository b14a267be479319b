import { InvalidTileGridError } from './errors.js';
import { TILE_PIXELS, WORLD_SIZE } from './web-mercator.js';

/**
 * The zoom whose 256-pixel tiles have the resolution closest to `metresPerPixel` (in EPSG:3857
 * metres), compared on a log scale: 2× too fine and 2× too coarse are equally far. Clamped to
 * [minZoom, maxZoom].
 */
export function nativeZoom(metresPerPixel: number, minZoom = 0, maxZoom = 22): number {
  if (!Number.isFinite(metresPerPixel) || metresPerPixel <= 0) {
    throw new InvalidTileGridError(`resolution ${metresPerPixel} m/px is not a positive number`);
  }
  const z = Math.round(Math.log2(WORLD_SIZE / TILE_PIXELS / metresPerPixel));
  return Math.min(Math.max(z, minZoom), maxZoom);
}
