import type { Bbox } from './bbox.js';
import { type TileRange, tileRange } from './tile-range.js';
import { ORIGIN_SHIFT, WORLD_SIZE } from './web-mercator.js';

/**
 * The tile ranges covering an EPSG:3857 box whose x may run past the antimeridian (as
 * reprojectFootprint() returns it for a source crossing it): one range, or two when the box
 * wraps, one at the east end of the map (x up to 2^z − 1) and one at the west end (from x = 0).
 * A box as wide as the world, or whose two ends meet, is one range spanning every column.
 */
export function tileRanges(bbox: Bbox, z: number): TileRange[] {
  const [minX, minY, maxX, maxY] = bbox;
  const parts: Bbox[] =
    maxX - minX >= WORLD_SIZE
      ? [[-ORIGIN_SHIFT, minY, ORIGIN_SHIFT, maxY]]
      : minX < -ORIGIN_SHIFT
        ? [
            [minX + WORLD_SIZE, minY, ORIGIN_SHIFT, maxY],
            [-ORIGIN_SHIFT, minY, maxX, maxY],
          ]
        : maxX > ORIGIN_SHIFT
          ? [
              [minX, minY, ORIGIN_SHIFT, maxY],
              [-ORIGIN_SHIFT, minY, maxX - WORLD_SIZE, maxY],
            ]
          : [bbox];
  const ranges = parts.map((part) => tileRange(part, z)).filter((r): r is TileRange => r !== undefined);
  const [east, west] = ranges;
  // At low zooms the two ends of the map meet: one range of every column, no tile twice.
  if (east && west && east.minX <= west.maxX + 1) return [{ ...east, minX: 0, maxX: 2 ** z - 1 }];
  return ranges;
}
