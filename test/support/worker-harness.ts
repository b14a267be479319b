import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach } from 'vitest';
import { processTable } from '../../lib/process/process-table.js';
import { nodeEntry } from '../../local/node-entry.js';

export interface WorkerHandle {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly scratch: string;
  readonly ownPidNamespace: boolean;
  /** Structured log lines, parsed as they arrive. */
  readonly logs: Record<string, unknown>[];
  /** Plain (non-JSON) stderr lines. */
  readonly text: string[];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Tool invocations this worker started, by sub-tile id. */
  toolStarts(): Map<string, number>;
  waitForLog(
    predicate: (line: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
}

/** Settings that keep the tests quick: short leases, quick polling, exit when idle. */
export const FAST_WORKER_ENV: Readonly<Record<string, string>> = {
  GEOHUB_RECEIVE_WAIT_S: '1',
  GEOHUB_IDLE_EXIT_MS: '4000',
  GEOHUB_LEASE_MS: '3000',
  GEOHUB_KILL_GRACE_MS: '2000',
  GEOHUB_RUN_WATCH_MS: '200',
  GEOHUB_RETRY_DELAY_S: '1',
  GEOHUB_STOP_GRACE_MS: '120000',
};

/** How to start the worker: by default its TypeScript source under this node. */
export interface WorkerLaunch {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  /** Replaces this process's environment as the base (the stack's and the test's still apply). */
  readonly baseEnv?: NodeJS.ProcessEnv;
  /**
   * The worker runs in a PID namespace of its own (unshare --kill-child): the PIDs it logs are
   * not this machine's, and killing the launcher ends every process in the namespace.
   */
  readonly ownPidNamespace?: boolean;
}

/** Starts a real worker process (worker/main.ts, or `launch`) against the suite's local stack. */
export function spawnWorker(
  env: Record<string, string>,
  overrides: Record<string, string> = {},
  launch: WorkerLaunch = {
    file: process.execPath,
    args: nodeEntry(new URL('../../worker/main.ts', import.meta.url)),
  },
): WorkerHandle {
  const scratch = overrides.GEOHUB_SCRATCH_DIR ?? mkdtempSync(join(tmpdir(), 'geohub-worker-'));
  const child = spawn(launch.file, launch.args, {
    cwd: launch.cwd,
    env: {
      ...(launch.baseEnv ?? process.env),
      ...env,
      ...FAST_WORKER_ENV,
      GEOHUB_SCRATCH_DIR: scratch,
      ...overrides,
    },
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  const text: string[] = [];
  const waiters: {
    predicate: (l: Record<string, unknown>) => boolean;
    resolve: (l: Record<string, unknown>) => void;
  }[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    let parsed: Record<string, unknown> | undefined;
    try {
      parsed = JSON.parse(line) as Record<string, unknown>;
    } catch {
      text.push(line);
      return;
    }
    logs.push(parsed);
    for (const w of [...waiters]) {
      if (w.predicate(parsed)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(parsed);
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    pid: child.pid!,
    scratch,
    ownPidNamespace: launch.ownPidNamespace === true,
    logs,
    text,
    exited,
    toolStarts() {
      const counts = new Map<string, number>();
      for (const l of logs) {
        if (l.msg === 'tool started') counts.set(String(l.tileId), (counts.get(String(l.tileId)) ?? 0) + 1);
      }
      return counts;
    },
    waitForLog(predicate, timeoutMs = 60_000) {
      const seen = logs.find(predicate);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('log line not seen in time')), timeoutMs);
        waiters.push({
          predicate,
          resolve: (l) => {
            clearTimeout(timer);
            resolve(l);
          },
        });
      });
    },
  };
}

/**
 * Stops a worker for good (test teardown): SIGKILL if it is still running, and the process
 * groups of the tools it started, which a SIGKILLed worker cannot clean up itself.
 */
export async function killWorker(worker: WorkerHandle): Promise<void> {
  if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
  await worker.exited;
  // In a namespace of its own the kernel killed everything in it; its logged PIDs are not ours.
  for (const line of worker.ownPidNamespace ? [] : worker.logs) {
    if (line.msg !== 'tool started') continue;
    try {
      process.kill(-Number(line.pid), 'SIGKILL');
    } catch {
      // already gone, as it should be
    }
  }
  // As ECS discards a stopped task's filesystem.
  rmSync(worker.scratch, { recursive: true, force: true });
}

/** The workers a test file starts: push them here and each is stopped after its test. */
export function trackWorkers(): WorkerHandle[] {
  const workers: WorkerHandle[] = [];
  afterEach(async () => {
    await Promise.all(workers.splice(0).map(killWorker));
  });
  return workers;
}

/** The live (non-zombie) members of a process group. */
export const liveGroup = (pgid: number) => processTable().filter((p) => p.pgid === pgid && p.state !== 'Z');
