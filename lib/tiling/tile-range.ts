import type { Bbox } from './bbox.js';
import { InvalidTileGridError } from './errors.js';
import { MAX_ZOOM, ORIGIN_SHIFT, TILE_PIXELS, tileSizeAt } from './web-mercator.js';

/** The tiles of one zoom whose indexes lie in [minX..maxX] × [minY..maxY] (inclusive; y grows southwards). */
export interface TileRange {
  readonly z: number;
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
}

/**
 * How far (in tile widths) a box must reach into a tile for the tile to count: a thousandth of
 * a pixel. A source aligned on the grid (shade.tif is exactly one z12 tile) ends a few
 * micrometres past a tile edge after floating-point arithmetic; without a tolerance that sliver
 * would add a whole row and column of empty tiles.
 */
export const EDGE_TOLERANCE = 1 / (TILE_PIXELS * 1000);

const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), hi);

/**
 * The tiles at zoom z that intersect the EPSG:3857 box with a positive area (touching an edge
 * is not intersecting). Undefined when none does: a box outside the world or thinner than the
 * tolerance.
 */
export function tileRange(bbox: Bbox, z: number): TileRange | undefined {
  if (!Number.isInteger(z) || z < 0 || z > MAX_ZOOM) {
    throw new InvalidTileGridError(`zoom ${z} is not an integer in 0..${MAX_ZOOM}`);
  }
  if (!bbox.every(Number.isFinite)) throw new InvalidTileGridError(`bbox ${bbox.join(',')} is not finite`);
  const size = tileSizeAt(z);
  const n = 2 ** z;
  const [minX, minY, maxX, maxY] = bbox.map((v) => clamp(v, -ORIGIN_SHIFT, ORIGIN_SHIFT)) as [
    number,
    number,
    number,
    number,
  ];
  // Fractional tile coordinates of the box edges; y counts from the top (north) edge of the world.
  const left = (minX + ORIGIN_SHIFT) / size;
  const right = (maxX + ORIGIN_SHIFT) / size;
  const top = (ORIGIN_SHIFT - maxY) / size;
  const bottom = (ORIGIN_SHIFT - minY) / size;
  const range: TileRange = {
    z,
    minX: clamp(Math.floor(left + EDGE_TOLERANCE), 0, n - 1),
    maxX: clamp(Math.ceil(right - EDGE_TOLERANCE) - 1, 0, n - 1),
    minY: clamp(Math.floor(top + EDGE_TOLERANCE), 0, n - 1),
    maxY: clamp(Math.ceil(bottom - EDGE_TOLERANCE) - 1, 0, n - 1),
  };
  // Empty when the box is thinner than the tolerance on either axis (after clamping to the world).
  if (right - left <= EDGE_TOLERANCE || bottom - top <= EDGE_TOLERANCE) return undefined;
  if (range.minX > range.maxX || range.minY > range.maxY) return undefined;
  return range;
}

/** Number of tiles in the range (exact for any zoom the model allows: below 2^53). */
export function tileCount(range: TileRange): number {
  return (range.maxX - range.minX + 1) * (range.maxY - range.minY + 1);
}
