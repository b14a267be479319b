import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { tileOutputKey } from '../lib/model/ids.js';
import type { Metatile } from '../lib/model/metatile.js';
import type { RunHead, TileOutput } from '../lib/model/run.js';
import type { TileTask } from '../lib/model/tile.js';
import { isDisplayFormat, TILE_FORMAT_SPECS, tileFormatOf } from '../lib/model/tile-format.js';
import { renderTileSpec } from '../lib/operations/display-output.js';
import type { Operation, ToolRunner } from '../lib/operations/operation.js';
import { TILE_SIZE } from '../lib/operations/raster-xyz.js';
import { withAtomicOutput } from '../lib/output/atomic-output.js';
import { mirrorOutput, runMirror } from '../lib/output/output-mirror.js';
import type { EnginePool, EngineSpec } from '../lib/process/engine-pool.js';
import { engineRequest, type RunScope, scopeEnv } from '../lib/process/engine-request.js';
import { ProcessGroupSurvivedError } from '../lib/process/errors.js';
import { runProcess } from '../lib/process/run-process.js';
import type { ChildTile } from '../lib/pyramid/child-tiles.js';
import type { ObjectStore } from '../lib/store/object-store.js';
import { classifyTileError } from './classify-tile-error.js';
import { TileDataError } from './errors.js';
import type { MemberAccess } from './member-access.js';
import type { SourceAccess } from './source-access.js';

export interface ProcessTileDeps {
  readonly store: ObjectStore;
  readonly sources: SourceAccess;
  /** A collection run's members (absent: the worker takes no collection runs). */
  readonly members?: MemberAccess;
  readonly operations: Readonly<Record<string, Operation>>;
  readonly scratchDir: string;
  readonly toolTimeoutMs: number;
  readonly killGraceMs: number;
  /** Every tool's environment: the worker's, the same for every run. */
  readonly toolEnv: Readonly<Record<string, string | undefined>>;
  /**
   * What a run's tools need to know of it (its source's pin): with each engine request, in a
   * one-off tool's environment. Absent: tools get the worker's environment alone.
   */
  readonly runScope?: (run: RunHead) => RunScope;
  /** The metatile engine (metatile-command.ts): interpreter and script. */
  readonly metatileEngine: { readonly file: string; readonly args: readonly string[] };
  /**
   * Tools that read their input on stdin (the metatile engine) serve one request after another
   * on a long-lived engine (the worker's; tests may omit it: one process per request then).
   */
  readonly engines?: EnginePool;
  /** Where each uploaded tile is also left, on a local run (lib/output/output-mirror.ts). */
  readonly outputMirrorDir?: string;
  /** A `geohub up`'s mirror: only the runs given a directory in it (runMirror). */
  readonly outputMirrorPerRun?: boolean;
  /**
   * A pyramid's lower-level metatile: the child tiles it is made from, as their markers recorded
   * them (lib/pyramid/child-tiles.ts). Absent: the worker makes no lower levels.
   */
  readonly childTiles?: (
    run: RunHead,
    metatile: Pick<Metatile, 'tiles' | 'children'>,
  ) => Promise<readonly ChildTile[]>;
  /** Called once per tool invocation with the sub-tiles it works on (counts tool work in tests and benchmarks). */
  readonly onToolStart?: (file: string, pid: number, tiles: readonly TileTask[], runId: string) => void;
}

/** Where a sub-tile's output is written in the worker's scratch space before its upload. */
export function scratchTilePath(deps: ProcessTileDeps, runId: string, tile: TileTask, ext = 'tif'): string {
  return join(deps.scratchDir, 'out', runId, String(tile.z), String(tile.x), `${tile.y}.${ext}`);
}

/**
 * How the worker's engine is started: run-independent, so one engine serves every run and can be
 * started before the first (`EnginePool.prestart`). It runs in the scratch root (its paths are
 * absolute): it serves other attempts, whose work directories it cannot know.
 */
export function engineSpec(
  deps: Pick<ProcessTileDeps, 'toolEnv' | 'scratchDir'>,
  file: string,
  args: readonly string[],
): EngineSpec {
  return { file, args, env: deps.toolEnv, cwd: deps.scratchDir };
}

/** Tool runs bound to the attempt's budget, cancellation, scratch and environment. */
export function toolRunner(
  deps: ProcessTileDeps,
  run: RunHead,
  work: string,
  tiles: readonly TileTask[],
  signal: AbortSignal,
): ToolRunner {
  const scope = deps.runScope?.(run);
  return {
    run: (file, args, options = {}) => {
      signal.throwIfAborted();
      const onSpawn = (pid: number) => deps.onToolStart?.(file, pid, options.tiles ?? tiles, run.runId);
      const limits = { signal, timeoutMs: deps.toolTimeoutMs, graceMs: deps.killGraceMs, onSpawn };
      // The same engine serves every run: what a run needs goes with its requests.
      if (options.input !== undefined && deps.engines) {
        const spec = engineSpec(deps, file, args);
        const input = scope ? engineRequest(options.input, scope) : options.input;
        return deps.engines.run(spec, input, limits);
      }
      const env = scope ? { ...deps.toolEnv, ...scopeEnv(scope) } : deps.toolEnv;
      return runProcess(file, args, { ...limits, env, cwd: work, input: options.input });
    },
  };
}

/**
 * What the tool reads: the run's source, or the local copies of the collection members under the
 * metatile (the index the split wrote into its message).
 */
export async function resolveSource(
  deps: ProcessTileDeps,
  run: RunHead,
  members: readonly number[] | undefined,
  signal: AbortSignal,
): Promise<string | readonly string[]> {
  if (!members) return deps.sources.resolve(run, signal);
  if (!deps.members)
    throw new TileDataError(`run ${run.runId} is a collection; this worker reads no collections`);
  return deps.members.resolve(run, members, signal);
}

/**
 * Produces one sub-tile and uploads it: tool → .part → atomic rename → upload. Returns the
 * durable object's key, ETag and size; the caller writes the marker only after that.
 * Errors come out classified: TileDataError, TileRetryableError, DeadlineExceededError,
 * ProcessGroupSurvivedError, or the cancellation cause carried by `signal`.
 */
export async function processTile(
  deps: ProcessTileDeps,
  run: RunHead,
  tile: TileTask,
  signal: AbortSignal,
  members?: readonly number[],
): Promise<TileOutput> {
  const operation = deps.operations[run.operation];
  if (!operation) throw new TileDataError(`unknown operation ${run.operation}`);
  const format = tileFormatOf(run.params);
  const spec = TILE_FORMAT_SPECS[format];
  const key = tileOutputKey(run.runId, tile, spec.ext);
  const final = scratchTilePath(deps, run.runId, tile, spec.ext);
  const work = await mkdtemp(join(deps.scratchDir, 'work-'));
  let survived = false;
  try {
    signal.throwIfAborted();
    const source = await resolveSource(deps, run, members, signal);
    const tools = toolRunner(deps, run, work, [tile], signal);
    await withAtomicOutput(final, async (output) => {
      // Display tiles: the operation's GeoTIFF, rendered by the engine (display-output.ts).
      const display = isDisplayFormat(format);
      const data = display ? join(work, 'data.tif') : output;
      await operation.execute({ source, tile, params: run.params, output: data, scratch: work }, tools);
      if (display) {
        const render = renderTileSpec(data, tile, output, run.params, TILE_SIZE);
        await tools.run(deps.metatileEngine.file, deps.metatileEngine.args, { input: render });
      }
    });
    signal.throwIfAborted();
    const head = await deps.store.putFile(key, final, { signal, contentType: spec.contentType });
    await mirrorOutput(
      await runMirror(deps.outputMirrorDir, run.runId, deps.outputMirrorPerRun === true),
      key,
      final,
    );
    return { key, etag: head.etag, bytes: head.bytes };
  } catch (error) {
    // Above any cancellation cause: the worker cannot kill its tool, so it must stop working.
    survived = error instanceof ProcessGroupSurvivedError;
    throw classifyTileError(signal, error);
  } finally {
    // Independent cleanups: each runs whatever the other did. A group that survived SIGKILL
    // may still write here: its files stay as evidence for the self-check.
    if (!survived) {
      await rm(final, { force: true }).catch(() => {});
      await rm(work, { recursive: true, force: true }).catch(() => {});
    }
  }
}
