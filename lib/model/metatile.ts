import { createHash } from 'node:crypto';
import { z } from 'zod';
import { type TileTask, tileTaskSchema } from './tile.js';

/** Upper bound on sub-tiles per metatile (and message): it amortises SQS overhead, not more. */
export const MAX_TILES_PER_MESSAGE = 16;
/**
 * Most collection members one metatile may read. A sub-tile over more source files than this is
 * a mistake of zoom (a whole survey under one web tile): split refuses it, naming the zoom.
 */
export const MAX_MEMBERS_PER_METATILE = 1_000;

/**
 * A metatile: the block of sub-tiles one message carries, and the unit of claim and marker
 * (docs/architecture.md, "Ledger"). Its tiles are made by one tool run and marked together. A
 * collection run's metatile also names the members (indexes into the run's member list,
 * `runs/<runId>/members.json`) its tiles touch: the index split made, so no worker re-scans.
 */
export interface Metatile {
  /** 16 hex digits, derived from its tiles' ids (see `metatileOf`). */
  readonly id: string;
  readonly tiles: readonly TileTask[];
  /** A collection run's members under these tiles, ascending; absent for a single-source run. */
  readonly members?: readonly number[];
}

/** A metatile as the manifest lists it, one per line, and as a message body carries its parts. */
export const metatileSchema = z
  .object({
    id: z.string().regex(/^[0-9a-f]{16}$/, 'a metatile id is 16 hex digits'),
    tiles: z.array(tileTaskSchema).min(1).max(MAX_TILES_PER_MESSAGE),
    members: z.array(z.number().int().min(0)).min(1).max(MAX_MEMBERS_PER_METATILE).optional(),
  })
  .strict();

/**
 * The metatile of these sub-tiles. The id hashes the sorted tile ids, so the same block gets the
 * same id whatever order its message lists the tiles in, and a re-drive that re-sends the block
 * finds its claim item again.
 */
export function metatileOf(tiles: readonly TileTask[], members?: readonly number[]): Metatile {
  if (tiles.length === 0) throw new RangeError('a metatile holds at least one sub-tile');
  const ids = tiles.map((t) => t.id).sort();
  const id = createHash('sha256').update(ids.join(',')).digest('hex').slice(0, 16);
  return members && members.length > 0 ? { id, tiles, members } : { id, tiles };
}

/** The metatile a ledger record holds: what a re-drive or a re-send queues again. */
export function metatileOfRecord(record: {
  readonly metatileId: string;
  readonly tiles: readonly TileTask[];
  readonly members?: readonly number[];
}): Metatile {
  return {
    id: record.metatileId,
    tiles: record.tiles,
    ...(record.members && record.members.length > 0 ? { members: record.members } : {}),
  };
}

/** A metatile's fields as a ledger item stores them: its tiles, and its members if any. */
export function metatileFields(metatile: Metatile): {
  tiles: readonly TileTask[];
  members?: readonly number[];
} {
  return { tiles: metatile.tiles, ...(metatile.members ? { members: metatile.members } : {}) };
}

/**
 * How many metatiles one worker may hold at once: one in its tool, one uploading and marking
 * (docs/architecture.md#overlap). A worker stopped abruptly costs at most these.
 */
export const METATILES_IN_FLIGHT_PER_WORKER = 2;
