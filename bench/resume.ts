/**
 * Resume costs, each measured `runs` times:
 * (1) a SIGTERM to a worker while its tool is in flight (waited for, not hoped for), with the
 *     production grace and with none left: how many sub-tiles it held (its claims: one metatile in
 *     its tool, maybe one uploading beside it) and how many were redone;
 * (2) a re-run of a completed run that real warps produced (RGB.byte.tif at zoom 13: 2,750
 *     sub-tiles): every message sent again, timed until each was handled (skipped after one
 *     ledger read) and until the queue was empty (batched deletes); target ≤ 3 s and no tool run.
 */
import { join } from 'node:path';
import type { Ledger } from '../lib/ledger/ledger.js';
import { allManifestMetatiles } from '../lib/manifest/walk-manifest.js';
import { metatileMessage } from '../lib/model/message.js';
import { startLocalHub } from '../local/hub/local-hub.js';
import { repeat, type Spread, spread } from './support/stats.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One SIGTERM: sub-tiles of the metatiles the worker held at that moment, and sub-tiles redone. */
export interface SigtermRun {
  readonly inFlightTiles: number;
  readonly inFlightMetatiles: number;
  readonly redone: number;
  readonly status: string;
}

export interface SigtermResume {
  readonly tiles: number;
  /** The production stop grace (120 s): the worker finishes what it holds, then exits 75. */
  readonly graceful: readonly SigtermRun[];
  /** No grace left (stop grace = the cleanup reserve): what it holds is cancelled and given back. */
  readonly abrupt: readonly SigtermRun[];
}

/** The metatiles a pool worker holds (its claims), by id, with their sub-tile counts. */
async function heldBy(ledger: Ledger, runId: string, owner: string, into: Map<string, number>) {
  for await (const m of ledger.listMetatiles(runId))
    if (m.state === 'CLAIMED' && m.owner?.startsWith(owner)) into.set(m.metatileId, m.tiles.length);
}

async function sigtermOnce(root: string, workers: number, zoom: number, after: number, abrupt: boolean) {
  let toolSubTiles = 0;
  let done = 0;
  // After the signal: the metatiles the victim still ended (finished or gave back) were in flight.
  let victimId: string | undefined;
  const endedAfter = new Map<string, number>();
  const hub = await startLocalHub({
    workers,
    pollMs: 250,
    workerEnv: {
      GEOHUB_RECEIVE_WAIT_S: '1',
      GEOHUB_LOG_LEVEL: 'info',
      // A stop grace no longer than the cleanup reserve: nothing in flight can finish in it.
      ...(abrupt ? { GEOHUB_STOP_GRACE_MS: '1000' } : {}),
    },
    onWorkerLog: (_l, p) => {
      // One line per sub-tile a tool process works on.
      if (p?.msg === 'tool started') toolSubTiles += 1;
      if (p?.msg === 'metatile done') done += Number(p.tiles ?? 1);
      const ended = p?.msg === 'metatile done' || p?.msg === 'metatile interrupted; back to the queue';
      if (ended && victimId && String(p.worker).startsWith(victimId))
        endedAfter.set(String(p.metatileId), Number(p.tiles));
    },
  });
  try {
    const started = await hub.upload(join(root, 'examples/raster/RGB.byte.tif'), { job: { zoom } });
    if (started.outcome !== 'started') throw new Error('resume bench did not start');
    let tiles = 0;
    while (tiles === 0) {
      tiles = (await hub.ledger.getRun(started.runId))?.counters.total ?? 0;
      await sleep(20);
    }
    // Once `after` of the run is done (a third in the full bench), the moment a worker's tool is running.
    let victim: ReturnType<typeof hub.pool.activity>[number] | undefined;
    for (;;) {
      const busy = hub.pool.activity().find((a) => a.doing.msg === 'tool started');
      if (done >= tiles * after && busy) {
        victim = busy;
        break;
      }
      if (done >= tiles) throw new Error('resume bench: the run ended before a tool was caught in flight');
      await sleep(2);
    }
    // In flight: the claims it holds just before the signal (pool worker ids are
    // local-<slot>-<generation>-<hub pid>), whether in its tool or uploading beside it, and every
    // metatile it ended after the signal (one claimed while the ledger was being read).
    const owner = `local-${victim.slot}-${victim.generation}-`;
    const held = new Map<string, number>();
    await heldBy(hub.ledger, started.runId, owner, held);
    victimId = owner;
    process.kill(victim.pid, 'SIGTERM');
    const execution = await hub.executions.wait(started.executionArn);
    for (const [id, n] of endedAfter) held.set(id, n);
    return {
      tiles,
      inFlightTiles: [...held.values()].reduce((a, b) => a + b, 0),
      inFlightMetatiles: held.size,
      redone: toolSubTiles - tiles,
      status: execution.status,
    };
  } finally {
    await hub.stop();
  }
}

export async function benchSigtermResume(
  root: string,
  o: { workers: number; runs: number; zoom: number; after: number },
): Promise<SigtermResume> {
  const strip = ({ tiles: _, ...r }: SigtermRun & { tiles: number }): SigtermRun => r;
  const graceful = await repeat(o.runs, () => sigtermOnce(root, o.workers, o.zoom, o.after, false));
  const abrupt = await repeat(o.runs, () => sigtermOnce(root, o.workers, o.zoom, o.after, true));
  return { tiles: graceful[0]!.tiles, graceful: graceful.map(strip), abrupt: abrupt.map(strip) };
}

export interface RerunFigures {
  readonly tiles: number;
  readonly messages: number;
  readonly firstRunSeconds: number;
  readonly firstRunToolStarts: number;
  /** Until every message of the re-run was handled: skipped after one ledger read each. */
  readonly rerun: Spread;
  /** Until the queue was empty too: the last batched deletes went out. */
  readonly queueEmpty: Spread;
  readonly toolInvocations: number;
  readonly done: number | undefined;
}

export async function benchRerunCompleted(
  root: string,
  o: { workers: number; runs: number; zoom: number },
): Promise<RerunFigures> {
  let toolStarts = 0;
  let skipped = 0;
  const hub = await startLocalHub({
    workers: o.workers,
    pollMs: 250,
    workerEnv: { GEOHUB_RECEIVE_WAIT_S: '1', GEOHUB_LOG_LEVEL: 'info' },
    onWorkerLog: (_l, p) => {
      if (p?.msg === 'tool started') toolStarts += 1;
      if (p?.msg === 'metatile already accounted for; skipped') skipped += 1;
    },
  });
  try {
    // The completed run, made by real warps.
    const t0 = performance.now();
    const started = await hub.upload(join(root, 'examples/raster/RGB.byte.tif'), { job: { zoom: o.zoom } });
    if (started.outcome !== 'started') throw new Error('re-run bench did not start');
    const first = await hub.executions.wait(started.executionArn);
    if (first.status !== 'SUCCEEDED') throw new Error(`the run to re-run ended ${first.status}`);
    const firstSeconds = (performance.now() - t0) / 1000;
    const metatiles = await allManifestMetatiles(hub.store, started.runId);
    const tiles = metatiles.flatMap((m) => m.tiles);
    const firstToolStarts = toolStarts;
    // The re-run: every message of the run sent again, as a re-drive of the whole run would.
    // Sent under the redrive function's role, which may send to the work queue (the operator may not).
    const bodies = metatiles.map((m) => metatileMessage(started.runId, m));
    const redriveQueue = hub.principal('redrive').queue;
    const timings = await repeat(o.runs, async () => {
      const r0 = performance.now();
      const skipped0 = skipped;
      await redriveQueue.sendBatch(bodies);
      let handled = 0;
      for (;;) {
        if (!handled && skipped - skipped0 >= bodies.length) handled = (performance.now() - r0) / 1000;
        const depth = await hub.queue.depth();
        if (handled && depth.visible + depth.inFlight === 0) break;
        await sleep(50);
      }
      return { handled, empty: (performance.now() - r0) / 1000 };
    });
    const run = await hub.ledger.getRun(started.runId);
    return {
      tiles: tiles.length,
      messages: bodies.length,
      firstRunSeconds: Math.round(firstSeconds * 10) / 10,
      firstRunToolStarts: firstToolStarts,
      rerun: spread(timings.map((t) => t.handled)),
      queueEmpty: spread(timings.map((t) => t.empty)),
      toolInvocations: toolStarts - firstToolStarts,
      done: run?.counters.done,
    };
  } finally {
    await hub.stop();
  }
}
