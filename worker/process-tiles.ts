import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { tileOutputKey } from '../lib/model/ids.js';
import type { Metatile } from '../lib/model/metatile.js';
import type { RunHead, TileOutput } from '../lib/model/run.js';
import { TILE_FORMAT_SPECS, tileFormatOf } from '../lib/model/tile-format.js';
import { OVERVIEW } from '../lib/operations/overview.js';
import { withAtomicOutputs } from '../lib/output/atomic-output.js';
import { mirrorOutput, runMirror } from '../lib/output/output-mirror.js';
import { ProcessGroupSurvivedError } from '../lib/process/errors.js';
import { downloadChildren } from './child-sources.js';
import { classifyTileError } from './classify-tile-error.js';
import { TileDataError } from './errors.js';
import {
  type ProcessTileDeps,
  processTile,
  resolveSource,
  scratchTilePath,
  toolRunner,
} from './process-tile.js';

export interface ProcessTilesHooks {
  /**
   * Between the tool and the uploads, once every tile is promoted (the metatile engine only):
   * the worker's hand-over to its next metatile (handoff.ts). A rejection fails the attempt.
   */
  readonly beforeUpload?: () => Promise<void>;
}

/** Produces a metatile's tiles and uploads them; resolves only when every output is durable. */
export type ProcessTiles = (
  run: RunHead,
  metatile: Pick<Metatile, 'tiles' | 'members' | 'children'>,
  signal: AbortSignal,
  hooks?: ProcessTilesHooks,
) => Promise<ReadonlyMap<string, TileOutput>>;

/**
 * Produces a message's block of sub-tiles and uploads them. Operations that can
 * (`executeBlock`: the raster default) warp the block once in one GDAL process and cut it
 * into its tiles — no process per tile (docs/architecture.md#metatiles); each tile is
 * promoted .part → final by its own atomic rename, all are uploaded in parallel, and this
 * resolves only when every object is durable, with each one's key, ETag and size by sub-tile
 * id. Others (point clouds) run their per-tile path, one tile after the other.
 *
 * All or nothing: errors come out classified (TileDataError, TileRetryableError,
 * DeadlineExceededError, or the cancellation cause carried by `signal`), after every upload
 * has settled; the scratch outputs are removed on every path.
 */
export async function processTiles(
  deps: ProcessTileDeps,
  run: RunHead,
  metatile: Pick<Metatile, 'tiles' | 'members' | 'children'>,
  signal: AbortSignal,
  hooks: ProcessTilesHooks = {},
): Promise<ReadonlyMap<string, TileOutput>> {
  const { tiles, members } = metatile;
  // A pyramid's lower level is made from its children, whatever the run's operation.
  const operation = metatile.children ? OVERVIEW : deps.operations[run.operation];
  if (!operation) throw new TileDataError(`unknown operation ${run.operation}`);
  const results = new Map<string, TileOutput>();
  if (!operation.executeBlock) {
    for (const tile of tiles) results.set(tile.id, await processTile(deps, run, tile, signal, members));
    return results;
  }
  const format = TILE_FORMAT_SPECS[tileFormatOf(run.params)];
  const finals = tiles.map((tile) => scratchTilePath(deps, run.runId, tile, format.ext));
  const work = await mkdtemp(join(deps.scratchDir, 'work-'));
  let survived = false;
  try {
    signal.throwIfAborted();
    const children = metatile.children
      ? await downloadChildren(deps, run, metatile, work, signal)
      : undefined;
    const source = children ? children.paths : await resolveSource(deps, run, members, signal);
    await withAtomicOutputs(finals, (parts) =>
      operation.executeBlock!(
        {
          source,
          ...(children ? { sourceTiles: children.tiles } : {}),
          tiles: tiles.map((tile, i) => ({ tile, output: parts[i]! })),
          params: run.params,
          scratch: work,
          engine: deps.metatileEngine,
        },
        toolRunner(deps, run, work, tiles, signal),
      ),
    );
    signal.throwIfAborted();
    await hooks.beforeUpload?.();
    signal.throwIfAborted();
    const mirror = await runMirror(deps.outputMirrorDir, run.runId, deps.outputMirrorPerRun === true);
    // Every upload settles before this returns or throws: none still reads a file removed below.
    const uploads = await Promise.allSettled(
      tiles.map(async (tile, i) => {
        const key = tileOutputKey(run.runId, tile, format.ext);
        const head = await deps.store.putFile(key, finals[i]!, { signal, contentType: format.contentType });
        await mirrorOutput(mirror, key, finals[i]!);
        results.set(tile.id, { key, etag: head.etag, bytes: head.bytes });
      }),
    );
    const failed = uploads.find((u): u is PromiseRejectedResult => u.status === 'rejected');
    if (failed) throw failed.reason;
    return results;
  } catch (error) {
    survived = error instanceof ProcessGroupSurvivedError;
    throw classifyTileError(signal, error);
  } finally {
    // Independent cleanups: each runs whatever the others did. A group that survived SIGKILL
    // may still write here: its files stay as evidence for the self-check.
    if (!survived) {
      await Promise.all(finals.map((f) => rm(f, { force: true }).catch(() => {})));
      await rm(work, { recursive: true, force: true }).catch(() => {});
    }
  }
}
