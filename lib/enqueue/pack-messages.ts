import { MAX_TILES_PER_MESSAGE, serializeTileMessage } from '../model/message.js';
import { type Metatile, metatileOf } from '../model/metatile.js';
import type { TileTask } from '../model/tile.js';
import { METATILE_SIDE } from '../operations/metatile-layout.js';

/**
 * Message bodies of up to `tilesPerMessage` consecutive sub-tiles each, never two blocks in one.
 * The manifest lists tiles in 4×4 blocks, so consecutive tiles are map neighbours and a message
 * is a compact metatile: one rectangle, one GDAL process.
 */
export function packMessages(runId: string, tiles: readonly TileTask[], tilesPerMessage: number): string[] {
  return groupMetatiles(tiles, tilesPerMessage).map((m) =>
    serializeTileMessage({ v: 1, runId, tiles: [...m.tiles] }),
  );
}

/**
 * The metatiles of a manifest's tiles, in manifest order: the one grouping the enqueue sends
 * and anything that must find a tile's claim item from the manifest (the page) uses.
 */
export function groupMetatiles(tiles: readonly TileTask[], tilesPerMessage: number): Metatile[] {
  if (!Number.isInteger(tilesPerMessage) || tilesPerMessage < 1 || tilesPerMessage > MAX_TILES_PER_MESSAGE) {
    throw new RangeError(
      `tilesPerMessage must be an integer in 1..${MAX_TILES_PER_MESSAGE}, not ${tilesPerMessage}`,
    );
  }
  const groups: Metatile[] = [];
  let group: TileTask[] = [];
  for (const tile of tiles) {
    if (group.length === tilesPerMessage || (group.length > 0 && !nextInBlock(group, tile))) {
      groups.push(metatileOf(group));
      group = [];
    }
    group.push(tile);
  }
  if (group.length > 0) groups.push(metatileOf(group));
  return groups;
}

/**
 * Whether `tile` continues the block `group` started, in the manifest's order (split's 4×4 blocks,
 * row by row inside a block: lib/tiling/cover-tiles.ts). Blocks at the cover's right and bottom
 * edges hold fewer than 16 tiles, so a message of 16 consecutive lines would reach into the next
 * block and take two GDAL processes (docs/architecture.md#metatiles): a message ends with its block.
 */
function nextInBlock(group: readonly TileTask[], tile: TileTask): boolean {
  const first = group[0]!;
  const last = group.at(-1)!;
  if (tile.z !== first.z || tile.x < first.x || tile.x >= first.x + METATILE_SIDE) return false;
  if (tile.y >= first.y + METATILE_SIDE) return false;
  return (tile.y === last.y && tile.x === last.x + 1) || (tile.y === last.y + 1 && tile.x === first.x);
}
