import { ToolStartError } from './errors.js';
import { watchGroup } from './group-watch.js';
import { type RunProcessResult, toolExitError } from './run-process.js';
import {
  type EngineOutcome,
  type EngineSpec,
  type ServingEngine,
  startServingEngine,
} from './serving-engine.js';
import { forgetGroup, standDown } from './start-process.js';
import { groupGone, terminateGroup } from './terminate-group.js';

export type { EngineSpec } from './serving-engine.js';

export interface EngineRunOptions {
  /** Cancels the request (run cancelled, spot reclaim, breaker): the engine's group is terminated. */
  readonly signal?: AbortSignal;
  /** The request's budget. */
  readonly timeoutMs: number;
  /** Between SIGTERM and SIGKILL. */
  readonly graceMs: number;
  /** Called with the engine's PID (= its process group id) as the request is sent. */
  readonly onSpawn?: (pid: number) => void;
}

export interface EnginePool {
  /**
   * Runs one request (a line of input) on an engine started with `spec`: the one that served the
   * previous request when it is alive and was started the very same way, a new one otherwise.
   * Settles as runProcess does: the request's outputs are complete, or the error says why, and
   * after a timeout or a cancel the engine's whole group is confirmed dead.
   */
  run(spec: EngineSpec, input: string, options: EngineRunOptions): Promise<RunProcessResult>;
  /**
   * Starts an engine with `spec` to wait for the first request, unless one waits already: its
   * start is paid before any work needs it.
   */
  prestart(spec: EngineSpec): void;
  /**
   * Ends the waiting engine (SIGKILL: between requests it holds no output) and resolves once its
   * group is dead: a worker that exits right after leaves no engine for anyone to find.
   */
  close(): Promise<void>;
}

/**
 * Requests an engine serves before it is replaced: GDAL's caches and whatever a long-lived
 * process accumulates stay bounded, at the cost of one more start (~0.1 s) per this many.
 */
export const REQUESTS_PER_ENGINE = 200;

const keyOf = (spec: EngineSpec) => JSON.stringify([spec.file, spec.args, spec.env, spec.cwd]);

/**
 * Long-lived engines for a tool that serves requests on its stdin (the metatile engine): the
 * interpreter's start and GDAL's import cost as much CPU as a Byte metatile's warp
 * (docs/architecture.md#metatiles), so a worker's metatiles run one after the other on one
 * engine. A request that fails, times out or is cancelled ends its engine; the next starts anew.
 */
export function createEnginePool(options: { requestsPerEngine?: number } = {}): EnginePool {
  const requestsPerEngine = options.requestsPerEngine ?? REQUESTS_PER_ENGINE;
  let idle: { key: string; engine: ServingEngine } | undefined;
  let closed = false;
  const retire = (engine: ServingEngine) => {
    if (engine.process.pgid !== undefined) standDown(engine.process.pgid);
  };
  const take = (spec: EngineSpec): ServingEngine => {
    const key = keyOf(spec);
    const kept = idle?.key === key && idle.engine.alive() ? idle.engine : undefined;
    if (idle && !kept) retire(idle.engine); // another run's environment, or one that died waiting
    idle = undefined;
    return kept ?? startServingEngine(spec);
  };
  const keep = (spec: EngineSpec, engine: ServingEngine) => {
    if (closed || engine.served >= requestsPerEngine) return retire(engine);
    if (idle) retire(idle.engine);
    idle = { key: keyOf(spec), engine };
  };

  return {
    async run(spec, input, options) {
      options.signal?.throwIfAborted();
      const engine = take(spec);
      const { pgid, child } = engine.process;
      if (pgid === undefined) {
        const result = await child;
        throw new ToolStartError(`${spec.file} could not be started: ${result.message ?? 'no pid'}`, {
          cause: result,
        });
      }
      options.onSpawn?.(pgid);
      const started = Date.now();
      const watch = watchGroup(pgid, options);
      let kept = false;
      try {
        // A group that survives SIGKILL never answers nor exits: its error must end the wait.
        const outcome = await Promise.race([engine.request(input), watch.unkillable]);
        await watch.settle(spec.file);
        failIfFailed(spec.file, outcome);
        if (outcome.kind === 'done') {
          keep(spec, engine);
          kept = true;
        }
        return { stdout: '', stderr: outcome.stderr, durationMs: Date.now() - started };
      } finally {
        // An engine not kept is dead before this returns, with whatever it started.
        if (!kept && !watch.stopping && !groupGone(pgid)) watch.stop('cleanup');
        await watch.dispose();
        if (!kept) forgetGroup(pgid);
      }
    },
    prestart(spec) {
      if (closed || idle) return;
      idle = { key: keyOf(spec), engine: startServingEngine(spec) };
    },
    async close() {
      closed = true;
      const pgid = idle?.engine.process.pgid;
      idle = undefined;
      if (pgid === undefined) return;
      // No grace (it holds no output), and its death confirmed: a survivor is the self-check's.
      await terminateGroup(pgid, { graceMs: 0 }).catch(() => {});
      forgetGroup(pgid);
    },
  };
}

/** A request whose engine exited: fine only for a zero exit (a tool that serves one request and ends). */
function failIfFailed(file: string, outcome: EngineOutcome): void {
  if (outcome.kind === 'done') return;
  if (outcome.failure?.code === 'ENOENT') {
    throw new ToolStartError(`${file} is not installed or not on PATH`, { cause: outcome.failure });
  }
  if (outcome.exitCode === 0 && !outcome.signal) return;
  throw toolExitError(file, outcome.exitCode, outcome.signal, outcome.stderr);
}
