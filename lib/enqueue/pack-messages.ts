import { MAX_TILES_PER_MESSAGE, serializeTileMessage } from '../model/message.js';
import type { TileTask } from '../model/tile.js';

/**
 * Message bodies of up to `tilesPerMessage` consecutive sub-tiles each. The manifest lists tiles
 * in 4×4 blocks, so consecutive tiles are map neighbours and a message is a compact metatile.
 */
export function packMessages(runId: string, tiles: readonly TileTask[], tilesPerMessage: number): string[] {
  if (!Number.isInteger(tilesPerMessage) || tilesPerMessage < 1 || tilesPerMessage > MAX_TILES_PER_MESSAGE) {
    throw new RangeError(
      `tilesPerMessage must be an integer in 1..${MAX_TILES_PER_MESSAGE}, not ${tilesPerMessage}`,
    );
  }
  const bodies: string[] = [];
  for (let i = 0; i < tiles.length; i += tilesPerMessage) {
    bodies.push(serializeTileMessage({ v: 1, runId, tiles: tiles.slice(i, i + tilesPerMessage) }));
  }
  return bodies;
}
