import { MAX_TILES_PER_MESSAGE, serializeTileMessage } from '../model/message.js';
import { type Metatile, metatileOf } from '../model/metatile.js';
import type { TileTask } from '../model/tile.js';

/**
 * Message bodies of up to `tilesPerMessage` consecutive sub-tiles each. The manifest lists tiles
 * in 4×4 blocks, so consecutive tiles are map neighbours and a message is a compact metatile.
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
  for (let i = 0; i < tiles.length; i += tilesPerMessage)
    groups.push(metatileOf(tiles.slice(i, i + tilesPerMessage)));
  return groups;
}
