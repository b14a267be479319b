import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { CapacityMode } from '../../lib/cost/capacity-policy.js';
import { killGroupNow } from '../../lib/process/terminate-group.js';
import { nodeEntry, siblingModule } from '../node-entry.js';

export interface WorkerActivity {
  readonly slot: number;
  readonly pid: number;
  readonly generation: number;
  readonly restarts: number;
  /** The capacity this worker runs on (Fargate Spot or on-demand, as the ECS service would). */
  readonly capacity: CapacityMode;
  /** What the worker last said it was doing (from its structured log). */
  readonly doing: {
    readonly runId?: string;
    readonly tileId?: string;
    readonly msg: string;
    readonly at: string;
  };
}

export interface WorkerPoolOptions {
  readonly size: number;
  /** Environment of every worker (the stack's endpoints and names, worker settings). */
  readonly env: Readonly<Record<string, string>>;
  /** Where worker log lines go (default: dropped). */
  readonly onLog?: (line: string, parsed: Record<string, unknown> | undefined) => void;
  readonly onExit?: (slot: number, code: number | null, signal: NodeJS.Signals | null) => void;
  /** Restart a worker that exits, as an ECS service would (default true). */
  readonly restart?: boolean;
}

/** The pool's capacity: the mode new workers start in, the workers on each, the time spent on each. */
export interface PoolCapacity {
  readonly mode: CapacityMode;
  readonly spot: number;
  readonly onDemand: number;
  /** Worker-seconds run on each capacity so far (running workers included). */
  readonly seconds: { readonly spot: number; readonly onDemand: number };
  /** On-demand workers stopped (SIGTERM) to come back on spot. */
  readonly recycled: number;
}

export interface WorkerPool {
  activity(): WorkerActivity[];
  /**
   * The capacity new workers start on. Back to spot also replaces the on-demand workers: each
   * gets SIGTERM (it finishes or gives back its sub-tile, as on a scale-in) and restarts on spot.
   */
  setCapacity(mode: CapacityMode): void;
  capacity(): PoolCapacity;
  pids(): number[];
  /** Every worker PID this pool ever started (to prove, after a stop, that none survived). */
  startedPids(): number[];
  /** SIGTERM to every worker, up to `graceMs` for them to stop, then SIGKILL; no restarts. */
  stop(graceMs?: number): Promise<void>;
}

interface Slot {
  slot: number;
  child?: ChildProcess;
  generation: number;
  restarts: number;
  capacity: CapacityMode;
  since: number;
  scratch?: string;
  toolGroups: Set<number>;
  doing: WorkerActivity['doing'];
  exited?: Promise<void>;
}

/**
 * Local stand-in for the ECS service: keeps `size` worker processes running, restarting
 * any that exit. Each worker generation gets a fresh scratch directory, removed when it
 * exits — as a task's container filesystem is — and the tool process groups a killed
 * worker leaves behind are killed too, as stopping a task kills every process in it.
 */
const liveWorkers = new Set<ChildProcess>();
let exitHook = false;

export function startWorkerPool(options: WorkerPoolOptions): WorkerPool {
  if (!exitHook) {
    exitHook = true;
    // Last resort if this process exits without stopping its pools.
    process.once('exit', () => {
      for (const child of liveWorkers) child.kill('SIGKILL');
    });
  }
  const entry = nodeEntry(siblingModule(import.meta.url, '../../worker/main.js'));
  let stopping = false;
  let mode: CapacityMode = 'spot';
  const seconds = { spot: 0, onDemand: 0 };
  let recycled = 0;
  const account = (s: Slot, now = Date.now()) => {
    seconds[s.capacity === 'spot' ? 'spot' : 'onDemand'] += (now - s.since) / 1000;
    s.since = now;
  };
  const started: number[] = [];
  const slots: Slot[] = Array.from({ length: options.size }, (_, slot) => ({
    slot,
    generation: 0,
    restarts: 0,
    capacity: 'spot' as CapacityMode,
    since: Date.now(),
    toolGroups: new Set<number>(),
    doing: { msg: 'starting', at: new Date().toISOString() },
  }));

  const launch = (s: Slot) => {
    s.generation += 1;
    s.capacity = mode;
    s.since = Date.now();
    s.scratch = mkdtempSync(join(tmpdir(), `geohub-pool-${s.slot}-`));
    const child = spawn(process.execPath, entry, {
      env: {
        ...process.env,
        ...options.env,
        GEOHUB_WORKER_ID: `local-${s.slot}-${s.generation}-${process.pid}`,
        GEOHUB_CAPACITY: s.capacity,
        GEOHUB_SCRATCH_DIR: s.scratch,
      },
      // The IPC channel lets the worker notice when this process dies (see worker/main.ts).
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    s.child = child;
    liveWorkers.add(child);
    if (child.pid !== undefined) started.push(child.pid);
    createInterface({ input: child.stderr! }).on('line', (line) => {
      let parsed: Record<string, unknown> | undefined;
      try {
        parsed = JSON.parse(line) as Record<string, unknown>;
      } catch {
        parsed = undefined;
      }
      if (parsed) {
        if (parsed.msg === 'tool started' && typeof parsed.pid === 'number') s.toolGroups.add(parsed.pid);
        s.doing = {
          runId: parsed.runId as string | undefined,
          tileId: parsed.tileId as string | undefined,
          msg: String(parsed.msg),
          at: String(parsed.time ?? new Date().toISOString()),
        };
      }
      options.onLog?.(line, parsed);
    });
    s.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        liveWorkers.delete(child);
        account(s);
        // A worker that died hard cannot clean up its tools: the pool does, as ECS would.
        for (const pgid of s.toolGroups) killGroupNow(pgid);
        s.toolGroups.clear();
        if (s.scratch) rmSync(s.scratch, { recursive: true, force: true });
        s.child = undefined;
        options.onExit?.(s.slot, code, signal);
        resolve();
        if (!stopping && options.restart !== false) {
          s.restarts += 1;
          // A refused self-check will not heal in a second: back off harder.
          setTimeout(() => !stopping && launch(s), code === 78 ? 10_000 : 500).unref();
        }
      });
    });
  };
  for (const s of slots) launch(s);

  return {
    activity: () =>
      slots
        .filter((s) => s.child?.pid !== undefined)
        .map((s) => ({
          slot: s.slot,
          pid: s.child!.pid!,
          generation: s.generation,
          restarts: s.restarts,
          capacity: s.capacity,
          doing: s.doing,
        })),
    setCapacity(next) {
      if (next === mode) return;
      mode = next;
      if (next !== 'spot' || stopping) return;
      for (const s of slots) {
        if (!s.child || s.capacity !== 'on-demand') continue;
        s.child.kill('SIGTERM');
        recycled += 1;
      }
    },
    capacity() {
      const now = Date.now();
      const running = slots.filter((s) => s.child);
      const extra = { spot: 0, onDemand: 0 };
      for (const s of running) extra[s.capacity === 'spot' ? 'spot' : 'onDemand'] += (now - s.since) / 1000;
      return {
        mode,
        spot: running.filter((s) => s.capacity === 'spot').length,
        onDemand: running.filter((s) => s.capacity === 'on-demand').length,
        seconds: { spot: seconds.spot + extra.spot, onDemand: seconds.onDemand + extra.onDemand },
        recycled,
      };
    },
    pids: () => slots.flatMap((s) => (s.child?.pid ? [s.child.pid] : [])),
    startedPids: () => [...started],
    async stop(graceMs = 15_000) {
      stopping = true;
      const running = slots.filter((s) => s.child);
      for (const s of running) s.child!.kill('SIGTERM');
      const timer = setTimeout(() => {
        for (const s of running) s.child?.kill('SIGKILL');
      }, graceMs);
      await Promise.all(running.map((s) => s.exited));
      clearTimeout(timer);
    },
  };
}
