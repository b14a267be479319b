import { listTiles } from '../../lib/ledger/tile-records.js';
import type { TileRecord } from '../../lib/model/run.js';
import { descendants, isAlive } from '../../lib/process/process-table.js';
import { verifyRun } from '../../lib/verify/verify-run.js';
import { startLocalHub } from '../hub/local-hub.js';
import { findDebris } from '../server/debris.js';
import { manifestTiles } from './manifest-tiles.js';

export interface ChaosOptions {
  readonly source: string;
  readonly zoom: number;
  readonly workers: number;
  /** Pause between two kills, drawn uniformly in [min, max] ms. */
  readonly killEveryMs: readonly [number, number];
  readonly seed: number;
  readonly timeoutMs: number;
}

export interface ChaosReport {
  readonly runId: string;
  readonly status: string;
  readonly tiles: number;
  readonly workers: number;
  readonly kills: { readonly sigkill: number; readonly sigterm: number };
  readonly restarts: number;
  readonly toolInvocations: number;
  /** Tool invocations beyond one per sub-tile. */
  readonly redone: number;
  /** At most one in-flight sub-tile per kill may be redone. */
  readonly redoneBound: number;
  readonly durationMs: number;
  readonly checks: {
    readonly everySubTileOneMarker: boolean;
    readonly everyMarkerHasItsObject: boolean;
    readonly noMarkerWithoutObject: boolean;
    readonly noPartFiles: boolean;
    readonly noOrphanedTools: boolean;
    readonly redoneWithinBound: boolean;
    readonly countersExact: boolean;
  };
  /** PIDs started for this run (emulators, Java, workers, tool groups) still alive after the stop. */
  readonly leftAfterStop: readonly number[];
  readonly ok: boolean;
}

/** A small seeded PRNG (mulberry32): the same seed replays the same kill schedule. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Chaos on the local stack: several workers, hundreds of sub-tiles, random SIGKILL and
 * SIGTERM to workers while the run goes on, workers restarted as ECS would. Then the state
 * of the world is checked from the ledger, S3 and the process table.
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const rand = random(options.seed);
  const toolStarts = new Map<string, number>();
  const toolGroups: number[] = [];
  const started = Date.now();
  const hub = await startLocalHub({
    workers: options.workers,
    pollMs: 500,
    workerEnv: {
      GEOHUB_RECEIVE_WAIT_S: '1',
      GEOHUB_LEASE_MS: '4000',
      GEOHUB_RETRY_DELAY_S: '0',
      GEOHUB_KILL_GRACE_MS: '2000',
      GEOHUB_LOG_LEVEL: 'info',
    },
    onWorkerLog: (_line, parsed) => {
      if (parsed?.msg === 'tool started') {
        toolGroups.push(Number(parsed.pid));
        const id = String(parsed.tileId);
        toolStarts.set(id, (toolStarts.get(id) ?? 0) + 1);
      }
    },
  });
  const stackPids = hub.stack.pids.flatMap((pid) => [pid, ...descendants(pid)]);
  let result: Omit<ChaosReport, 'leftAfterStop' | 'ok'> & { passed: boolean };
  try {
    const upload = await hub.upload(options.source, { name: 'chaos.tif', job: { zoom: options.zoom } });
    if (upload.outcome !== 'started')
      throw new Error(`the chaos run did not start: ${JSON.stringify(upload)}`);
    const execution = hub.executions.wait(upload.executionArn);
    let ended = false;
    void execution.then(() => {
      ended = true;
    });

    const kills = { sigkill: 0, sigterm: 0 };
    const deadline = Date.now() + options.timeoutMs;
    while (!ended && Date.now() < deadline) {
      const [min, max] = options.killEveryMs;
      await Promise.race([execution, sleep(min + rand() * (max - min))]);
      if (ended) break;
      const live = hub.pool.activity();
      if (live.length === 0) continue;
      const victim = live[Math.floor(rand() * live.length)]!;
      const signal = rand() < 0.5 ? 'SIGKILL' : 'SIGTERM';
      try {
        process.kill(victim.pid, signal);
        if (signal === 'SIGKILL') kills.sigkill += 1;
        else kills.sigterm += 1;
      } catch {
        // it exited on its own a moment ago
      }
    }
    if (!ended) {
      await hub.executions.stop(upload.executionArn);
      throw new Error(`the chaos run did not finish within ${options.timeoutMs} ms`);
    }
    const runId = upload.runId;
    const run = await hub.ledger.getRun(runId);

    const records: TileRecord[] = [];
    for await (const t of listTiles(hub.ledger, runId)) records.push(t);
    const planned = await manifestTiles(hub.store, runId);
    const ids = new Set(records.map((t) => t.tileId));
    const everySubTileOneMarker =
      records.length === planned.length &&
      ids.size === records.length &&
      planned.every((t) => ids.has(t.id)) &&
      records.every((t) => t.state === 'DONE' && t.output !== undefined);
    const report = await verifyRun(hub.ledger, hub.store, runId);
    const debris = findDebris(hub.pool.pids());
    const toolInvocations = [...toolStarts.values()].reduce((a, b) => a + b, 0);
    const redone = toolInvocations - planned.length;
    const redoneBound = kills.sigkill + kills.sigterm;
    const checks = {
      everySubTileOneMarker,
      everyMarkerHasItsObject: report.gaps.length === 0 && report.markers === planned.length,
      noMarkerWithoutObject: report.gaps.length === 0 && report.objects >= report.markers,
      noPartFiles: debris.parts.length === 0,
      noOrphanedTools: debris.orphans.length === 0,
      redoneWithinBound: redone <= redoneBound,
      countersExact: run?.counters.done === planned.length,
    };
    const restarts = hub.pool.activity().reduce((n, w) => n + w.restarts, 0);
    result = {
      runId,
      status: run?.status ?? 'UNKNOWN',
      tiles: planned.length,
      workers: options.workers,
      kills,
      restarts,
      toolInvocations,
      redone,
      redoneBound,
      durationMs: Date.now() - started,
      checks,
      passed: run?.status === 'SUCCEEDED' && Object.values(checks).every(Boolean),
    };
  } finally {
    await hub.stop();
  }
  // Processes you start, you stop: everything this run started must be gone now.
  const ours = [...stackPids, ...hub.pool.startedPids(), ...toolGroups];
  const leftAfterStop = ours.filter((pid) => isAlive(pid));
  const { passed, ...report } = result;
  return { ...report, leftAfterStop, ok: passed && leftAfterStop.length === 0 };
}
