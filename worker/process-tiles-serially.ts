import type { RunRecord, TileOutput } from '../lib/model/run.js';
import type { TileTask } from '../lib/model/tile.js';

/** Produces a metatile's tiles and uploads them; resolves only when every output is durable. */
export type ProcessTiles = (
  run: RunRecord,
  tiles: readonly TileTask[],
  signal: AbortSignal,
) => Promise<ReadonlyMap<string, TileOutput>>;

/**
 * A metatile as a loop of per-tile tool runs, behind the metatile signature: the stand-in until
 * one tool process makes the whole block. The first failure ends the metatile with its
 * classified error (a process group that survived SIGKILL comes out as itself).
 */
export function processTilesSerially(
  processTile: (run: RunRecord, tile: TileTask, signal: AbortSignal) => Promise<TileOutput>,
): ProcessTiles {
  return async (run, tiles, signal) => {
    const outputs = new Map<string, TileOutput>();
    for (const tile of tiles) outputs.set(tile.id, await processTile(run, tile, signal));
    return outputs;
  };
}
