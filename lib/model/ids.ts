import { createHash } from 'node:crypto';
import { z } from 'zod';

export const runIdSchema = z.string().regex(/^[0-9a-z-]{8,64}$/, 'a run id is 8 to 64 of [0-9a-z-]');

function hex(parts: readonly (string | number)[], length: number): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, length);
}

/** Identity of one source object version: the same upload always maps to the same run. */
export interface SourceIdentity {
  readonly bucket: string;
  readonly key: string;
  /** Version id where the bucket is versioned, else the ETag. */
  readonly version: string;
}

/** Deterministic run id: a duplicate upload event finds the run it already started. */
export function runIdFor(source: SourceIdentity): string {
  return `r-${hex([source.bucket, source.key, source.version], 20)}`;
}

/** Deterministic sub-tile id: hash of source identity, tile, operation and its parameter version. */
export function tileIdFor(
  runId: string,
  operation: string,
  paramsVersion: string,
  tile: { z: number; x: number; y: number },
): string {
  return hex([runId, operation, paramsVersion, tile.z, tile.x, tile.y], 16);
}

/**
 * Where a run's metadata lives (manifest, member list, outputs): apart from its tiles, so the
 * tiles prefix holds exactly one object per marker (docs/architecture.md, "Finalize and outputs").
 * This file is the one place a run's key prefixes are spelled.
 */
export function runPrefix(runId: string): string {
  return `runs/${runId}/`;
}

/** Where a run's sub-tiles are stored (and nothing else of it: docs/architecture.md, "Finalize and outputs"). */
export function tilesPrefix(runId: string): string {
  return `tiles/${runId}/`;
}

/**
 * Output object key of a sub-tile: derived, never taken from any input path. `ext` is its run's
 * tile format's (lib/model/tile-format.ts): `tif` unless the run makes display tiles.
 */
export function tileOutputKey(runId: string, tile: { z: number; x: number; y: number }, ext = 'tif'): string {
  return `${tilesPrefix(runId)}${tile.z}/${tile.x}/${tile.y}.${ext}`;
}
