import { MAX_TILES_PER_MESSAGE, type Metatile, metatileOf } from '../model/metatile.js';
import type { TileTask } from '../model/tile.js';
import { METATILE_SIDE } from '../operations/metatile-layout.js';
import { coverTiles } from '../tiling/cover-tiles.js';
import type { TileCoord } from '../tiling/tile-coord.js';
import type { TileRange } from '../tiling/tile-range.js';

/**
 * The metatiles of every range, range after range, each cut in METATILE_SIDE² blocks (a block
 * never spans the antimeridian), their tiles named by `tileId`: what split writes to the manifest.
 */
export function* coverMetatiles(
  ranges: readonly TileRange[],
  tileId: (tile: TileCoord) => string,
  tilesPerMessage: number,
): Generator<Metatile> {
  function* tasks(): Generator<TileTask> {
    for (const range of ranges)
      for (const tile of coverTiles(range, METATILE_SIDE))
        yield { id: tileId(tile), z: tile.z, x: tile.x, y: tile.y };
  }
  yield* groupMetatiles(tasks(), tilesPerMessage);
}

/**
 * Metatiles of up to `tilesPerMessage` consecutive sub-tiles each, never two blocks in one, in
 * order and lazily (a million-tile split holds one group). The cover lists tiles in 4×4 blocks,
 * so consecutive tiles are map neighbours and a metatile is compact: one rectangle, one GDAL
 * process. Done once, at the split: the manifest stores the metatiles it makes.
 */
export function* groupMetatiles(tiles: Iterable<TileTask>, tilesPerMessage: number): Generator<Metatile> {
  if (!Number.isInteger(tilesPerMessage) || tilesPerMessage < 1 || tilesPerMessage > MAX_TILES_PER_MESSAGE) {
    throw new RangeError(
      `tilesPerMessage must be an integer in 1..${MAX_TILES_PER_MESSAGE}, not ${tilesPerMessage}`,
    );
  }
  let group: TileTask[] = [];
  for (const tile of tiles) {
    if (group.length === tilesPerMessage || (group.length > 0 && !nextInBlock(group, tile))) {
      yield metatileOf(group);
      group = [];
    }
    group.push(tile);
  }
  if (group.length > 0) yield metatileOf(group);
}

/**
 * Whether `tile` continues the block `group` started, in the cover's order (4×4 blocks, row by
 * row inside a block: lib/tiling/cover-tiles.ts). Blocks at the cover's right and bottom edges
 * hold fewer than 16 tiles, so a metatile of 16 consecutive tiles would reach into the next block
 * and take two GDAL processes (docs/architecture.md#metatiles): a metatile ends with its block.
 */
function nextInBlock(group: readonly TileTask[], tile: TileTask): boolean {
  const first = group[0]!;
  const last = group.at(-1)!;
  if (tile.z !== first.z || tile.x < first.x || tile.x >= first.x + METATILE_SIDE) return false;
  if (tile.y >= first.y + METATILE_SIDE) return false;
  return (tile.y === last.y && tile.x === last.x + 1) || (tile.y === last.y + 1 && tile.x === first.x);
}
