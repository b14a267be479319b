import type { RunRecord, TileOutput } from '../lib/model/run.js';
import type { TileTask } from '../lib/model/tile.js';

export type ProcessTiles = (
  run: RunRecord,
  tiles: readonly TileTask[],
  signal: AbortSignal,
) => Promise<ReadonlyMap<string, TileOutput>>;

/**
 * Bridges the per-sub-tile message handler to the metatile engine until claims and markers
 * move to the metatile: the first sub-tile asked for makes it and the message's sub-tiles after
 * it in one GDAL process (their objects durable before any of their markers); later asks are
 * answered from that. After a failed block the rest of the message goes one sub-tile at a time,
 * so a bad block costs one extra tool run, not one per remaining sub-tile.
 */
export function blockPerMessage(
  messageTiles: readonly TileTask[],
  processTiles: ProcessTiles,
): (run: RunRecord, tile: TileTask, signal: AbortSignal) => Promise<TileOutput> {
  const made = new Map<string, TileOutput>();
  const asked = new Set<string>();
  let blockFailed = false;
  return async (run, tile, signal) => {
    asked.add(tile.id);
    const ready = made.get(tile.id);
    if (ready) return ready;
    const at = messageTiles.findIndex((t) => t.id === tile.id);
    const block = blockFailed
      ? [tile]
      : [tile, ...messageTiles.slice(at + 1).filter((t) => !asked.has(t.id) && !made.has(t.id))];
    try {
      const outputs = await processTiles(run, block, signal);
      for (const [id, output] of outputs) made.set(id, output);
    } catch (error) {
      blockFailed = true;
      throw error;
    }
    const output = made.get(tile.id);
    if (!output) throw new Error(`the block made no output for sub-tile ${tile.id}`);
    return output;
  };
}
