import { findFiles } from '../../lib/fs/find-files.js';
import { listTiles } from '../../lib/ledger/tile-records.js';
import { allManifestTiles } from '../../lib/manifest/walk-manifest.js';
import { METATILES_IN_FLIGHT_PER_WORKER } from '../../lib/model/metatile.js';
import type { RunCounters, TileRecord } from '../../lib/model/run.js';
import { PART_SUFFIX } from '../../lib/output/atomic-output.js';
import { descendants, isAlive, processTable } from '../../lib/process/process-table.js';
import { isToolProcess } from '../../lib/process/tool-processes.js';
import { verifyRun } from '../../lib/verify/verify-run.js';
import type { FaultCounts } from '../faults/aws-behaviour.js';
import type { FaultRates } from '../faults/fault-rates.js';
import { seededRandom } from '../faults/seeded-random.js';
import type { CapacitySettings, CapacityView } from '../hub/capacity-controller.js';
import { startLocalHub } from '../hub/local-hub.js';
import { ChaosRunError } from './errors.js';
import { type KillCounts, killWorkers } from './kill-workers.js';
import { reclaimSpotWorkers } from './reclaim-spot-workers.js';
import { type Stranded, strandedMessages } from './stranded-messages.js';

export interface ChaosOptions {
  readonly source: string;
  /** One level, or a pyramid's range "min-max". */
  readonly zoom: number | string;
  /**
   * A pyramid: the kills start once a worker's tool starts on a lower level (a tile below the
   * base zoom), so they land while the lower levels are made.
   */
  readonly killDuringLowerLevels?: boolean;
  readonly workers: number;
  /** Pause between two kills, drawn uniformly in [min, max] ms; undefined: no kills. */
  readonly killEveryMs?: readonly [number, number];
  /** No more kills after this many (each SIGKILL holds its metatile for a lease: let the run end). */
  readonly maxKills?: number;
  /** AWS faults injected by the local stack's AWS-behaviour layer. */
  readonly faults: FaultRates;
  readonly seed: number;
  readonly timeoutMs: number;
  /** Sub-tiles per message (metatile size); default: the largest a message holds. */
  readonly tilesPerMessage?: number;
  /** Worker settings on top of the production defaults (none by default). */
  readonly workerEnv?: Readonly<Record<string, string>>;
  /**
   * Spot reclaims instead of random kills: SIGTERM, only to busy workers on spot capacity (on-demand
   * capacity is not reclaimed), every `killEveryMs` — the spot → on-demand fallback's chaos.
   */
  readonly spotReclaims?: { readonly capacity?: CapacitySettings };
}

export interface ChaosReport {
  readonly runId: string;
  readonly status: string;
  readonly tiles: number;
  readonly metatiles: number;
  readonly workers: number;
  readonly kills: KillCounts;
  readonly restarts: number;
  /** The capacity at the end: the switches made, the workers' time and its cost by capacity. */
  readonly capacity: CapacityView;
  readonly toolInvocations: number;
  /** Tool invocations beyond one per sub-tile. */
  readonly redone: number;
  /** Metatile claims beyond one per metatile: each kill may cost the ones in flight (two), nothing else may. */
  readonly redoneMetatiles: number;
  readonly counters?: RunCounters;
  /** What the AWS-behaviour layer saw and injected. */
  readonly faults?: FaultCounts;
  /** What it injected outside the proxies: Lambda service errors, refused starts, lost or late events. */
  readonly serviceFaults: Readonly<Record<string, number>>;
  /** The workers' warnings and errors, by message: what the faults and kills cost them. */
  readonly workerWarnings: Readonly<Record<string, number>>;
  /** Worker exits refused by the start-up self-check (exit 78). */
  readonly selfCheckRefusals: number;
  readonly durationMs: number;
  /**
   * A pyramid's lower levels: tool starts on them, how many came after the first kill dealt
   * among them, and how many kills were dealt once they had begun.
   */
  readonly lowerLevels?: { toolStarts: number; toolStartsAfterFirstKill: number; kills: number };
  /** What the queues held at the end (the detail behind `nothingStranded`). */
  readonly stranded: Stranded;
  readonly checks: {
    readonly everySubTileOneMarker: boolean;
    readonly everyMarkerHasItsObject: boolean;
    readonly noMarkerWithoutObject: boolean;
    /** Neither in the scratch directories now, nor left by any worker that exited by itself. */
    readonly noPartFiles: boolean;
    readonly noOrphanedTools: boolean;
    readonly noSelfCheckRefusals: boolean;
    readonly redoneWithinBound: boolean;
    readonly countersExact: boolean;
    /** No failure or retry counted: the injected faults are retried below the sub-tile. */
    readonly countersNotInflated: boolean;
    /**
     * Nothing only a re-drive could recover: the dead-letter queue is empty, the work queue
     * drains (a duplicate a retried Enqueue sent is dropped by the workers), and the reaper's
     * round over lost status events leaves the run SUCCEEDED.
     */
    readonly nothingStranded: boolean;
    /**
     * No metatile was first claimed from a message delivered before (a receive's answer nobody
     * read, invisible for a lease): the price of a SIGKILL or an SQS fault, never of a SIGTERM.
     */
    readonly noDeliveryLost: boolean;
  };
  /** PIDs started for this run (emulators, Java, workers, tool groups) still alive after the stop. */
  readonly leftAfterStop: readonly number[];
  readonly ok: boolean;
}

const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
const sum = (map: Map<string, number>) => [...map.values()].reduce((a, b) => a + b, 0);

/**
 * Chaos on the local stack with production settings: several workers, hundreds of sub-tiles,
 * AWS's faults injected in AWS's shapes, random SIGKILL and SIGTERM to workers, restarted as
 * ECS would. The pool cleans up only after a SIGKILL (as ECS does for a killed task); every
 * other exit is the worker's own stop path, and what it left is counted here. Then the state
 * of the world is checked from the ledger, S3 and the process table.
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const rand = seededRandom(options.seed);
  const toolStarts = new Map<string, number>();
  const claims = new Map<string, number>();
  const receives = new Map<string, number>();
  const warnings = new Map<string, number>();
  const toolGroups: number[] = [];
  let lostDeliveries = 0;
  // A pyramid's lower levels: when their first tool started, and each kill dealt since.
  const baseZoom = typeof options.zoom === 'number' ? options.zoom : Number(options.zoom.split('-')[1]);
  let lowerStarted: () => void = () => {};
  const lowerLevels = new Promise<void>((resolve) => {
    lowerStarted = resolve;
  });
  const lower = { toolStarts: 0, toolStartsAfterFirstKill: 0, kills: 0 };
  const started = Date.now();
  const hub = await startLocalHub({
    workers: options.workers,
    pollMs: 500,
    faults: options.faults,
    tilesPerMessage: options.tilesPerMessage,
    workerEnv: { GEOHUB_LOG_LEVEL: 'info', ...options.workerEnv },
    capacity: options.spotReclaims?.capacity,
    onWorkerLog: (_line, parsed) => {
      if (parsed?.msg === 'tool started') {
        toolGroups.push(Number(parsed.pid));
        count(toolStarts, String(parsed.tileId));
        if (Number(parsed.z) < baseZoom) {
          lower.toolStarts += 1;
          if (lower.kills > 0) lower.toolStartsAfterFirstKill += 1;
          lowerStarted();
        }
      }
      // Each metatile's most-received message: one past maxReceiveCount (3) is dead-lettered.
      if (parsed?.receiveCount !== undefined) {
        const id = String(parsed.metatileId);
        receives.set(id, Math.max(receives.get(id) ?? 0, Number(parsed.receiveCount)));
      }
      if (String(parsed?.msg).startsWith('metatile claimed')) {
        const id = String(parsed?.metatileId);
        // Its first claim, from a message already delivered: a delivery nobody read was lost.
        if (!claims.has(id) && Number(parsed?.receiveCount) > 1) lostDeliveries += 1;
        count(claims, id);
      }
      if (Number(parsed?.level) >= 40) {
        const error = parsed?.error as { class?: string; message?: string } | undefined;
        const why = error ? ` (${error.class}: ${String(error.message).slice(0, 160)})` : '';
        count(warnings, `${String(parsed?.msg)}${why}`);
      }
    },
  });
  const stackPids = hub.stack.pids.flatMap((pid) => [pid, ...descendants(pid)]);
  let result: Omit<ChaosReport, 'leftAfterStop' | 'ok' | 'selfCheckRefusals'>;
  try {
    const upload = await hub.upload(options.source, { name: 'chaos.tif', job: { zoom: options.zoom } });
    if (upload.outcome !== 'started')
      throw new ChaosRunError(`the chaos run did not start: ${JSON.stringify(upload)}`);
    const execution = hub.executions.wait(upload.executionArn);
    let ended = false;
    void execution.then(() => {
      ended = true;
    });
    const deadline = Date.now() + options.timeoutMs;
    const kill = options.spotReclaims ? reclaimSpotWorkers : killWorkers;
    if (options.killDuringLowerLevels) await Promise.race([lowerLevels, execution]);
    const kills = options.killEveryMs
      ? await kill(
          hub.pool,
          execution,
          () => ended,
          options.killEveryMs,
          rand,
          deadline,
          options.maxKills,
          () => {
            if (lower.toolStarts > 0) lower.kills += 1;
          },
        )
      : { sigkill: 0, sigterm: 0 };
    // Unref'd: once the run has ended, this timer must not keep the process alive.
    await Promise.race([
      execution,
      new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now())).unref()),
    ]);
    if (!ended) {
      const counters = (await hub.ledger.getRun(upload.runId))?.counters;
      await hub.executions.stop(upload.executionArn);
      throw new ChaosRunError(
        `the chaos run did not finish within ${options.timeoutMs} ms (${JSON.stringify({ kills, counters })})`,
      );
    }
    const runId = upload.runId;
    await hub.reap();
    const run = await hub.ledger.getRun(runId);
    // Every worker hands its messages back on a SIGTERM: with no SIGKILL and no SQS fault, no
    // message may sit out a lease (60 s) invisible; a SIGKILL or a lost delete may cost one.
    const sqsFaults = Object.values(hub.stack.faults()?.injected.sqs ?? {}).reduce((a, b) => a + b, 0);
    const handedBack = kills.sigkill === 0 && sqsFaults === 0;
    const stranded = await strandedMessages(hub, handedBack ? 20_000 : 60_000);

    const records: TileRecord[] = [];
    for await (const t of listTiles(hub.ledger, runId)) records.push(t);
    const planned = await allManifestTiles(hub.store, runId);
    const ids = new Set(records.map((t) => t.tileId));
    const metatiles = new Set(records.map((t) => t.metatileId));
    const largest = Math.max(
      1,
      ...[...metatiles].map((m) => records.filter((t) => t.metatileId === m).length),
    );
    const everySubTileOneMarker =
      records.length === planned.length &&
      ids.size === records.length &&
      planned.every((t) => ids.has(t.id)) &&
      records.every((t) => t.state === 'DONE' && t.output !== undefined);
    const report = await verifyRun(hub.ledger, hub.store, runId);
    const toolInvocations = sum(toolStarts);
    const redone = toolInvocations - planned.length;
    const redoneMetatiles = sum(claims) - claims.size;
    // Each kill, and each on-demand worker the pool stopped to bring it back on spot, may cost
    // the metatiles in flight: one in its tool and one uploading (docs/architecture.md#overlap).
    const allKills = kills.sigkill + kills.sigterm + hub.pool.capacity().recycled;
    const counters = run?.counters;
    const checks = {
      everySubTileOneMarker,
      everyMarkerHasItsObject: report.gaps.length === 0 && report.markers === planned.length,
      noMarkerWithoutObject: report.gaps.length === 0 && report.objects >= report.markers,
      // Checked again after the stop, with the workers' own exits.
      noPartFiles: hub.pool
        .scratchDirs()
        .every((d) => findFiles(d, (n) => n.endsWith(PART_SUFFIX)).length === 0),
      // The run is over but the workers still run: a group still working (a GDAL-named process)
      // is an orphan; a worker's engine waiting for its next metatile (`python3`) is not. After
      // the stop, below, nothing of any tool group may be left at all.
      noOrphanedTools: !processTable().some((p) => toolGroups.includes(p.pgid) && isToolProcess(p)),
      noSelfCheckRefusals: true,
      redoneWithinBound:
        redoneMetatiles <= METATILES_IN_FLIGHT_PER_WORKER * allKills &&
        redone <= METATILES_IN_FLIGHT_PER_WORKER * allKills * largest,
      countersExact: counters?.done === planned.length && counters.total === planned.length,
      countersNotInflated: counters?.failed === 0 && counters.retried === 0,
      noDeliveryLost: !handedBack || lostDeliveries === 0,
      nothingStranded: stranded.total === 0 && run?.status === 'SUCCEEDED',
    };
    const restarts = hub.pool.activity().reduce((n, w) => n + w.restarts, 0);
    result = {
      runId,
      status: run?.status ?? 'UNKNOWN',
      tiles: planned.length,
      metatiles: metatiles.size,
      workers: options.workers,
      kills,
      restarts,
      capacity: hub.capacity.view(),
      toolInvocations,
      redone,
      redoneMetatiles,
      counters,
      faults: hub.stack.faults(),
      serviceFaults: hub.serviceFaults(),
      workerWarnings: Object.fromEntries(warnings),
      durationMs: Date.now() - started,
      ...(lower.toolStarts > 0 ? { lowerLevels: lower } : {}),
      stranded: {
        ...stranded,
        // Where a message went to the DLQ: the metatiles whose messages were received 3 times.
        receivedThrice: [...receives.entries()].filter(([, n]) => n >= 3).map(([id]) => id),
      },
      checks,
    };
  } finally {
    await hub.stop();
  }
  // What the workers' own stop paths left (the pool cleans only after a SIGKILL, as ECS does).
  const ownExits = hub.pool.exits().filter((e) => e.signal !== 'SIGKILL');
  const selfCheckRefusals = hub.pool.exits().filter((e) => e.code === 78).length;
  const checks = {
    ...result.checks,
    noPartFiles: result.checks.noPartFiles && ownExits.every((e) => e.parts.length === 0),
    noOrphanedTools: result.checks.noOrphanedTools && ownExits.every((e) => e.liveToolGroups.length === 0),
    noSelfCheckRefusals: selfCheckRefusals === 0,
  };
  // Processes you start, you stop: everything this run started must be gone now.
  const ours = [...stackPids, ...hub.pool.startedPids(), ...toolGroups];
  const leftAfterStop = ours.filter((pid) => isAlive(pid));
  const passed = result.status === 'SUCCEEDED' && Object.values(checks).every(Boolean);
  return { ...result, checks, selfCheckRefusals, leftAfterStop, ok: passed && leftAfterStop.length === 0 };
}
