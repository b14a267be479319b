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
 * Most metatiles a pyramid's parent waits for: its four child blocks of 4×4 tiles, each cut in
 * up to 16 metatiles of one tile (docs/architecture.md#pyramids).
 */
export const MAX_CHILD_METATILES = 64;

/**
 * Where a pyramid metatile's parent block is listed in the manifest (docs/architecture.md#pyramids):
 * the lines of `manifest-levels-<part>.jsonl` from byte `offset`, `bytes` long, `lines` metatiles.
 * The child that finds every sibling accounted for sends those lines as messages.
 */
export const parentRefSchema = z
  .object({
    part: z.number().int().min(0).max(9_999),
    offset: z.number().int().min(0),
    bytes: z
      .number()
      .int()
      .min(1)
      .max(MAX_TILES_PER_MESSAGE * 16 * 1024),
    lines: z.number().int().min(1).max(MAX_TILES_PER_MESSAGE),
  })
  .strict();
export type ParentRef = z.infer<typeof parentRefSchema>;

/** A metatile's place in a pyramid: the parent it feeds, and (a lower level's) the children it is made from. */
export interface PyramidLinks {
  readonly up?: ParentRef;
  /** The metatile ids of the four child blocks, whose tiles this metatile's tiles are made from. */
  readonly children?: readonly string[];
}

/**
 * A metatile: the block of sub-tiles one message carries, and the unit of claim and marker
 * (docs/architecture.md, "Ledger"). Its tiles are made by one tool run and marked together. A
 * collection run's metatile also names the members (indexes into the run's member list,
 * `runs/<runId>/members.json`) its tiles touch: the index split made, so no worker re-scans.
 */
export interface Metatile extends PyramidLinks {
  /** 16 hex digits, derived from its tiles' ids (see `metatileOf`). */
  readonly id: string;
  readonly tiles: readonly TileTask[];
  /** A collection run's members under these tiles, ascending; absent for a single-source run. */
  readonly members?: readonly number[];
}

const metatileIdSchema = z.string().regex(/^[0-9a-f]{16}$/, 'a metatile id is 16 hex digits');

/** A metatile as the manifest lists it, one per line, and as a message body carries its parts. */
export const metatileSchema = z
  .object({
    id: metatileIdSchema,
    tiles: z.array(tileTaskSchema).min(1).max(MAX_TILES_PER_MESSAGE),
    members: z.array(z.number().int().min(0)).min(1).max(MAX_MEMBERS_PER_METATILE).optional(),
    up: parentRefSchema.optional(),
    children: z.array(metatileIdSchema).min(1).max(MAX_CHILD_METATILES).optional(),
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

/** The metatile with its pyramid links (absent ones left out): the id does not change. */
export function withLinks(metatile: Metatile, links: PyramidLinks): Metatile {
  return {
    ...metatile,
    ...(links.up ? { up: links.up } : {}),
    ...(links.children && links.children.length > 0 ? { children: links.children } : {}),
  };
}

/** The metatile a ledger record holds: what a re-drive or a re-send queues again. */
export function metatileOfRecord(
  record: {
    readonly metatileId: string;
    readonly tiles: readonly TileTask[];
    readonly members?: readonly number[];
  } & PyramidLinks,
): Metatile {
  return withLinks(
    {
      id: record.metatileId,
      tiles: record.tiles,
      ...(record.members && record.members.length > 0 ? { members: record.members } : {}),
    },
    record,
  );
}

/** A metatile's fields as a ledger item stores them: its tiles, members and pyramid links if any. */
export function metatileFields(metatile: Metatile): {
  tiles: readonly TileTask[];
  members?: readonly number[];
} & PyramidLinks {
  return {
    tiles: metatile.tiles,
    ...(metatile.members ? { members: metatile.members } : {}),
    ...(metatile.up ? { up: metatile.up } : {}),
    ...(metatile.children ? { children: metatile.children } : {}),
  };
}

/**
 * How many metatiles one worker may hold at once: one in its tool, one uploading and marking
 * (docs/architecture.md#overlap). A worker stopped abruptly costs at most these.
 */
export const METATILES_IN_FLIGHT_PER_WORKER = 2;
