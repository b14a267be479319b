import { z } from 'zod';
import { runIdSchema, runPrefix } from '../model/ids.js';
import { MAX_TILES_PER_MESSAGE } from '../model/metatile.js';

/** Metatile lines per manifest object: at most ~3 MB of JSON Lines, built in a Lambda's memory. */
export const MANIFEST_PART_LINES = 3_000;

/**
 * Where a run's sub-tiles are listed. The list itself lives in S3 as JSON Lines parts, one
 * metatile per line (`{id, tiles, members?}`: what one message carries and one claim covers);
 * only this reference travels through Step Functions state.
 */
export const manifestPartSchema = z
  .object({
    key: z.string().min(1).max(1024),
    /** Sub-tiles in the part (its lines are metatiles of up to 16). */
    tiles: z.number().int().min(0),
    bytes: z.number().int().min(0),
  })
  .strict();

/**
 * A pyramid's lower levels (docs/architecture.md#pyramids): listed apart from the enqueued parts,
 * top level first; a level's metatile is sent by the last of its children to be accounted for.
 */
export const manifestLevelsSchema = z
  .object({
    minZoom: z.number().int().min(0),
    maxZoom: z.number().int().min(0),
    parts: z.array(manifestPartSchema).max(10_000),
  })
  .strict();

export const manifestRefSchema = z
  .object({
    runId: runIdSchema,
    /** Sub-tiles of every level. */
    total: z.number().int().min(0),
    /** The metatiles the enqueue sends: the only level of a run, or a pyramid's base level. */
    parts: z.array(manifestPartSchema).max(10_000),
    levels: manifestLevelsSchema.optional(),
    // Sub-tiles per metatile the split chose (metatile-size.ts), for the record: the lines are
    // the metatiles, so no reader groups tiles again. Absent: the maximum.
    tilesPerMessage: z.number().int().min(1).max(MAX_TILES_PER_MESSAGE).optional(),
  })
  .strict()
  .refine((m) => [...m.parts, ...(m.levels?.parts ?? [])].reduce((n, p) => n + p.tiles, 0) === m.total, {
    message: 'the parts do not add up to the total',
  });

export type ManifestPart = z.infer<typeof manifestPartSchema>;
export type ManifestLevels = z.infer<typeof manifestLevelsSchema>;
export type ManifestRef = z.infer<typeof manifestRefSchema>;

/** Sub-tiles the enqueue sends: all of a run's, or a pyramid's base level (its workers send the rest). */
export function enqueuedTiles(ref: ManifestRef): number {
  return ref.parts.reduce((n, p) => n + p.tiles, 0);
}

/** `runs/<runId>/manifest-00000.jsonl`, … : derived from the run id, never from input. */
export function manifestPartKey(runId: string, index: number): string {
  return `${runPrefix(runId)}manifest-${String(index).padStart(5, '0')}.jsonl`;
}

/** `runs/<runId>/manifest-levels-00000.jsonl`, … : a pyramid's lower levels. */
export function manifestLevelsPartKey(runId: string, index: number): string {
  return `${runPrefix(runId)}manifest-levels-${String(index).padStart(5, '0')}.jsonl`;
}

/** `runs/<runId>/manifest.json`: the ManifestRef itself, for tools that start from a run id. */
export function manifestIndexKey(runId: string): string {
  return `${runPrefix(runId)}manifest.json`;
}
