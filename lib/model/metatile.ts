import { createHash } from 'node:crypto';
import type { TileTask } from './tile.js';

/**
 * A metatile: the block of sub-tiles one message carries, and the unit of claim and marker
 * (docs/architecture.md, "Ledger"). Its tiles are made by one tool run and marked together.
 */
export interface Metatile {
  /** 16 hex digits, derived from its tiles' ids (see `metatileOf`). */
  readonly id: string;
  readonly tiles: readonly TileTask[];
}

/**
 * The metatile of these sub-tiles. The id hashes the sorted tile ids, so the same block gets the
 * same id whatever order its message lists the tiles in, and a re-drive that re-sends the block
 * finds its claim item again.
 */
export function metatileOf(tiles: readonly TileTask[]): Metatile {
  if (tiles.length === 0) throw new RangeError('a metatile holds at least one sub-tile');
  const ids = tiles.map((t) => t.id).sort();
  const id = createHash('sha256').update(ids.join(',')).digest('hex').slice(0, 16);
  return { id, tiles };
}

/**
 * How many metatiles one worker may hold at once: one in its tool, one uploading and marking
 * (docs/architecture.md#overlap). A worker stopped abruptly costs at most these.
 */
export const METATILES_IN_FLIGHT_PER_WORKER = 2;
