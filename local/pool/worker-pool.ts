import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CapacityMode } from '../../lib/cost/capacity-policy.js';
import { findFiles } from '../../lib/fs/find-files.js';
import { PART_SUFFIX } from '../../lib/output/atomic-output.js';
import { groupGone, killGroupNow } from '../../lib/process/terminate-group.js';
import { ENV_FROM_PARENT, STACK_STOPPING } from '../../worker/env-from-parent.js';
import { bundledEntry } from '../bundled-entry.js';
import { nodeEntry, siblingModule } from '../node-entry.js';
import { createCapacityAccount, type PoolCapacity } from './pool-capacity.js';
import { followWorkerLog } from './worker-log.js';

export type { PoolCapacity } from './pool-capacity.js';

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

/** How a worker ended, and what its own stop path left behind (the pool does not clean it up). */
export interface WorkerExit {
  readonly slot: number;
  readonly pid: number;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** `.part` files left in its scratch directory. */
  readonly parts: readonly string[];
  /** Tool process groups it started that were still alive when it exited. */
  readonly liveToolGroups: readonly number[];
}

export interface WorkerPoolOptions {
  readonly size: number;
  /**
   * Environment of every worker (the stack's endpoints and names, worker settings). While a
   * promise of it is pending, workers start anyway and load their code: they get it over IPC.
   */
  readonly env: Env | Promise<Env>;
  /** Where worker log lines go (default: dropped). */
  readonly onLog?: (line: string, parsed: Record<string, unknown> | undefined) => void;
  readonly onExit?: (slot: number, code: number | null, signal: NodeJS.Signals | null) => void;
  /** Restart a worker that exits, as an ECS service would (default true). */
  readonly restart?: boolean;
}

type Env = Readonly<Record<string, string>>;

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
  /** Every worker exit so far, with what it left behind. */
  exits(): WorkerExit[];
  /** The scratch directories of the pool's slots (removed by `stop`). */
  scratchDirs(): string[];
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
 * any that exit. Only a worker killed by SIGKILL, which can clean up nothing, gets what ECS
 * does to a killed task: its tool process groups are killed and its scratch is discarded.
 * Any other exit is the worker's own business: what it left (tools, `.part` files) is
 * recorded, not cleaned, and the next worker of the slot starts on the same scratch, so its
 * start-up self-check is what finds it.
 */
const liveWorkers = new Set<ChildProcess>();
const liveSlots = new Set<Slot>();
let exitHook = false;

export function startWorkerPool(options: WorkerPoolOptions): WorkerPool {
  if (!exitHook) {
    exitHook = true;
    // Last resort if this process exits without stopping its pools.
    process.once('exit', () => {
      for (const child of liveWorkers) child.kill('SIGKILL');
      // The workers cannot clean up after a SIGKILL: their tools and scratch go here.
      for (const s of liveSlots) {
        for (const pgid of s.toolGroups) killGroupNow(pgid);
        if (s.scratch) rmSync(s.scratch, { recursive: true, force: true });
      }
    });
  }
  const entry = nodeEntry(
    bundledEntry(
      siblingModule(import.meta.url, '../../worker/main.js'),
      new URL('../../worker-bundle/main.js', import.meta.url),
    ),
  );
  let stopping = false;
  let stopped: Promise<void> | undefined;
  const account = createCapacityAccount();
  const started: number[] = [];
  const exits: WorkerExit[] = [];
  const slots: Slot[] = Array.from({ length: options.size }, (_, slot) => ({
    slot,
    generation: 0,
    restarts: 0,
    capacity: 'spot' as CapacityMode,
    since: Date.now(),
    toolGroups: new Set<number>(),
    doing: { msg: 'starting', at: new Date().toISOString() },
  }));

  let env = options.env instanceof Promise ? undefined : options.env;
  const pendingEnv = options.env instanceof Promise ? options.env.then((e) => (env = e)) : undefined;
  pendingEnv?.catch(() => {}); // the pool's owner stops it if the environment never comes
  const launch = (s: Slot) => {
    s.generation += 1;
    account.start(s);
    s.scratch ??= mkdtempSync(join(tmpdir(), `geohub-pool-${s.slot}-`));
    const slotEnv = (base: Env) => ({
      ...base,
      GEOHUB_WORKER_ID: `local-${s.slot}-${s.generation}-${process.pid}`,
      GEOHUB_CAPACITY: s.capacity,
      GEOHUB_SCRATCH_DIR: s.scratch!,
    });
    const child = spawn(process.execPath, entry, {
      env: { ...process.env, ...slotEnv(env ?? { [ENV_FROM_PARENT]: '1' }) },
      // The IPC channel lets the worker notice when this process dies (see worker/main.ts).
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      // A group of its own, as a task is: a terminal's Ctrl-C reaches the CLI, which cancels the
      // run so the worker stops its tool as on a cancel, not the worker directly.
      detached: true,
    });
    // With a callback: a worker that exits meanwhile breaks the pipe (EPIPE), which without one is
    // thrown from the channel's write as an uncaught exception. Its exit is handled below.
    const sendEnv = (e: Env) => child.connected && child.send({ [ENV_FROM_PARENT]: slotEnv(e) }, () => {});
    if (!env) void pendingEnv?.then(sendEnv, () => {});
    s.child = child;
    liveWorkers.add(child);
    liveSlots.add(s);
    if (child.pid !== undefined) started.push(child.pid);
    followWorkerLog(child.stderr!, ({ line, parsed, toolGroup, doing }) => {
      if (toolGroup !== undefined) s.toolGroups.add(toolGroup);
      if (doing) s.doing = doing;
      options.onLog?.(line, parsed);
    });
    s.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        liveWorkers.delete(child);
        account.stop(s);
        const liveToolGroups = [...s.toolGroups].filter((pgid) => !groupGone(pgid));
        s.toolGroups.clear();
        const parts = s.scratch ? findFiles(s.scratch, (n) => n.endsWith(PART_SUFFIX)) : [];
        exits.push({ slot: s.slot, pid: child.pid ?? 0, code, signal, parts, liveToolGroups });
        if (signal === 'SIGKILL') {
          // Killed outright, the worker could clean nothing: ECS stops every process of the
          // task and discards its filesystem.
          for (const pgid of liveToolGroups) killGroupNow(pgid);
          if (s.scratch) rmSync(s.scratch, { recursive: true, force: true });
          s.scratch = undefined;
        }
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
      if (!account.set(next) || next !== 'spot' || stopping) return;
      for (const s of slots) {
        if (!s.child || s.capacity !== 'on-demand') continue;
        s.child.kill('SIGTERM');
        account.recycled();
      }
    },
    capacity: () => account.snapshot(slots.filter((s) => s.child)),
    pids: () => slots.flatMap((s) => (s.child?.pid ? [s.child.pid] : [])),
    startedPids: () => [...started],
    exits: () => [...exits],
    scratchDirs: () => slots.flatMap((s) => (s.scratch ? [s.scratch] : [])),
    stop(graceMs = 15_000) {
      // Once: a caller that stops the workers early (the CLI, while it copies the outputs) and the
      // hub's own stop share the one stop, rather than signalling the workers twice.
      stopped ??= (async () => {
        stopping = true;
        const running = slots.filter((s) => s.child);
        for (const s of running) {
          // The stack goes with the pool: a worker need not wait out its long poll (the queue's
          // messages go too), unlike at a reclaim, where it must (worker/worker-loop.ts).
          if (s.child!.connected) s.child!.send({ [STACK_STOPPING]: true }, () => {});
          s.child!.kill('SIGTERM');
        }
        const timer = setTimeout(() => {
          for (const s of running) s.child?.kill('SIGKILL');
        }, graceMs);
        await Promise.all(running.map((s) => s.exited));
        clearTimeout(timer);
        // The pool's own resources, once every worker has gone and its exit has been recorded:
        // the process groups a worker left behind, then the scratch directories.
        for (const exit of exits) for (const pgid of exit.liveToolGroups) killGroupNow(pgid);
        for (const s of slots) {
          if (s.scratch) rmSync(s.scratch, { recursive: true, force: true });
          s.scratch = undefined;
          liveSlots.delete(s);
        }
      })();
      return stopped;
    },
  };
}
