import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { killGroupNow } from '../../lib/process/terminate-group.js';
import { nodeEntry, siblingModule } from '../node-entry.js';

export interface WorkerActivity {
  readonly slot: number;
  readonly pid: number;
  readonly generation: number;
  readonly restarts: number;
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

export interface WorkerPool {
  activity(): WorkerActivity[];
  pids(): number[];
  /** The scratch directories of this pool's live workers. */
  scratchDirs(): string[];
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
  const entry = nodeEntry(siblingModule(import.meta.url, '../../worker/main.js'));
  let stopping = false;
  const started: number[] = [];
  const slots: Slot[] = Array.from({ length: options.size }, (_, slot) => ({
    slot,
    generation: 0,
    restarts: 0,
    toolGroups: new Set<number>(),
    doing: { msg: 'starting', at: new Date().toISOString() },
  }));

  const launch = (s: Slot) => {
    s.generation += 1;
    s.scratch = mkdtempSync(join(tmpdir(), `geohub-pool-${s.slot}-`));
    const child = spawn(process.execPath, entry, {
      env: {
        ...process.env,
        ...options.env,
        GEOHUB_WORKER_ID: `local-${s.slot}-${s.generation}-${process.pid}`,
        GEOHUB_SCRATCH_DIR: s.scratch,
      },
      // The IPC channel lets the worker notice when this process dies (see worker/main.ts).
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      // A group of its own, as a task is: a terminal's Ctrl-C reaches the CLI, which cancels the
      // run so the worker stops its tool as on a cancel, not the worker directly.
      detached: true,
    });
    s.child = child;
    liveWorkers.add(child);
    liveSlots.add(s);
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
        // A worker that died hard cannot clean up its tools: the pool does, as ECS would.
        for (const pgid of s.toolGroups) killGroupNow(pgid);
        s.toolGroups.clear();
        if (s.scratch) rmSync(s.scratch, { recursive: true, force: true });
        s.child = undefined;
        liveSlots.delete(s);
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
          doing: s.doing,
        })),
    pids: () => slots.flatMap((s) => (s.child?.pid ? [s.child.pid] : [])),
    startedPids: () => [...started],
    scratchDirs: () => slots.flatMap((s) => (s.child && s.scratch ? [s.scratch] : [])),
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
