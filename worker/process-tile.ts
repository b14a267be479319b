import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { tileOutputKey } from '../lib/model/ids.js';
import type { RunRecord, TileOutput } from '../lib/model/run.js';
import type { TileTask } from '../lib/model/tile.js';
import { classifyFailure } from '../lib/operations/classify-failure.js';
import type { Operation } from '../lib/operations/operation.js';
import { withAtomicOutput } from '../lib/output/atomic-output.js';
import { ProcessGroupSurvivedError, ToolCancelledError, ToolTimeoutError } from '../lib/process/errors.js';
import { runProcess } from '../lib/process/run-process.js';
import type { ObjectStore } from '../lib/store/object-store.js';
import { DeadlineExceededError, TileDataError, TileRetryableError } from './errors.js';
import type { SourceAccess } from './source-access.js';

export interface ProcessTileDeps {
  readonly store: ObjectStore;
  readonly sources: SourceAccess;
  readonly operations: Readonly<Record<string, Operation>>;
  readonly scratchDir: string;
  readonly toolTimeoutMs: number;
  readonly killGraceMs: number;
  readonly toolEnv: Readonly<Record<string, string | undefined>>;
  /** Called once per tool invocation (counts tool work in tests and benchmarks). */
  readonly onToolStart?: (file: string, pid: number) => void;
}

/** The cancellation cause (InterruptedError, RunStoppedError, LeaseLostError) if the signal fired. */
function abortCause(signal: AbortSignal, error: unknown): unknown {
  if (signal.aborted) return signal.reason;
  if (error instanceof ToolCancelledError) return error.reason;
  return undefined;
}

/**
 * Produces one sub-tile and uploads it: tool → .part → atomic rename → upload. Returns the
 * durable object's key, ETag and size; the caller writes the marker only after that.
 * Errors come out classified: TileDataError, TileRetryableError, DeadlineExceededError,
 * ProcessGroupSurvivedError, or the cancellation cause carried by `signal`.
 */
export async function processTile(
  deps: ProcessTileDeps,
  run: RunRecord,
  tile: TileTask,
  signal: AbortSignal,
): Promise<TileOutput> {
  const operation = deps.operations[run.operation];
  if (!operation) throw new TileDataError(`unknown operation ${run.operation}`);
  const key = tileOutputKey(run.runId, tile);
  const final = join(deps.scratchDir, 'out', run.runId, String(tile.z), String(tile.x), `${tile.y}.tif`);
  const work = await mkdtemp(join(deps.scratchDir, 'work-'));
  let survived = false;
  try {
    signal.throwIfAborted();
    const source = await deps.sources.resolve(run, signal);
    await withAtomicOutput(final, (output) =>
      operation.execute(
        { source, tile, params: run.params, output, scratch: work },
        {
          run: (file, args) =>
            runProcess(file, args, {
              signal,
              timeoutMs: deps.toolTimeoutMs,
              graceMs: deps.killGraceMs,
              env: deps.toolEnv,
              cwd: work,
              onSpawn: (pid) => deps.onToolStart?.(file, pid),
            }),
        },
      ),
    );
    signal.throwIfAborted();
    const head = await deps.store.putFile(key, final, { signal, contentType: 'image/tiff' });
    return { key, etag: head.etag, bytes: head.bytes };
  } catch (error) {
    // Above any cancellation cause: the worker cannot kill its tool, so it must stop working.
    if (error instanceof ProcessGroupSurvivedError) {
      survived = true;
      throw error;
    }
    const cause = abortCause(signal, error);
    if (cause !== undefined) throw cause;
    if (error instanceof ToolTimeoutError) throw new DeadlineExceededError(error.message, { cause: error });
    if (error instanceof TileDataError) throw error;
    if (classifyFailure(error) === 'data')
      throw new TileDataError((error as Error).message, { cause: error });
    throw new TileRetryableError((error as Error).message ?? String(error), { cause: error });
  } finally {
    // Independent cleanups: each runs whatever the other did. A group that survived SIGKILL
    // may still write here: its files stay as evidence for the self-check.
    if (!survived) {
      await rm(final, { force: true }).catch(() => {});
      await rm(work, { recursive: true, force: true }).catch(() => {});
    }
  }
}
