import type { TileCoord } from './tile-coord.js';
import type { TileRange } from './tile-range.js';

/**
 * Every tile of the range, lazily, so a million tiles never sit in memory at once.
 *
 * Tiles come in square blocks of `blockSize` × `blockSize` (row-major inside a block, blocks
 * row-major across the range). Consecutive tiles are then neighbours on the map, so a message
 * that carries several consecutive tiles (a metatile) reads one compact area of the source.
 */
export function* coverTiles(range: TileRange, blockSize = 1): Generator<TileCoord> {
  const step = Math.max(1, Math.floor(blockSize));
  for (let by = range.minY; by <= range.maxY; by += step) {
    for (let bx = range.minX; bx <= range.maxX; bx += step) {
      const yEnd = Math.min(by + step - 1, range.maxY);
      const xEnd = Math.min(bx + step - 1, range.maxX);
      for (let y = by; y <= yEnd; y += 1) {
        for (let x = bx; x <= xEnd; x += 1) yield { z: range.z, x, y };
      }
    }
  }
}
