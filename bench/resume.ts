/**
 * Resume costs, each measured `runs` times:
 * (1) a SIGTERM to a worker while its tool is in flight (waited for, not hoped for): how many
 *     sub-tiles were in that tool run and how many were redone;
 * (2) a re-run of a completed run that real warps produced (RGB.byte.tif at zoom 13: 2,750
 *     sub-tiles): every message sent again, timed until the queue is empty; target ≤ 3 s and no
 *     tool run. Each message costs one batched ledger read and a delete.
 */
import { join } from 'node:path';
import { packMessages } from '../lib/enqueue/pack-messages.js';
import { allManifestTiles } from '../lib/manifest/walk-manifest.js';
import { MAX_TILES_PER_MESSAGE } from '../lib/model/message.js';
import { startLocalHub } from '../local/hub/local-hub.js';
import { repeat, type Spread, spread } from './support/stats.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface SigtermResume {
  readonly tiles: number;
  /** Per run: sub-tiles in the tool run in flight at the SIGTERM, and sub-tiles redone. */
  readonly runs: readonly {
    readonly inFlightTiles: number;
    readonly redone: number;
    readonly status: string;
  }[];
  readonly redone: Spread;
}

async function sigtermOnce(root: string, workers: number, zoom: number, after: number) {
  const starts = new Map<string, number>();
  const toolTiles = new Map<number, number>(); // tool pid → sub-tiles it works on
  const toolOf = new Map<string, number>(); // sub-tile → its latest tool pid
  let done = 0;
  const hub = await startLocalHub({
    workers,
    pollMs: 250,
    workerEnv: { GEOHUB_RECEIVE_WAIT_S: '1', GEOHUB_LOG_LEVEL: 'info' },
    onWorkerLog: (_l, p) => {
      if (p?.msg === 'tool started') {
        starts.set(String(p.tileId), (starts.get(String(p.tileId)) ?? 0) + 1);
        toolTiles.set(Number(p.pid), (toolTiles.get(Number(p.pid)) ?? 0) + 1);
        toolOf.set(String(p.tileId), Number(p.pid));
      }
      if (p?.msg === 'metatile done') done += Number(p.tiles ?? 1);
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
    process.kill(victim.pid, 'SIGTERM');
    const inFlightTool = toolOf.get(String(victim.doing.tileId)) ?? -1;
    const execution = await hub.executions.wait(started.executionArn);
    const invocations = [...starts.values()].reduce((a, b) => a + b, 0);
    // Counted once the run is over: the tool's log lines may still have been arriving at the SIGTERM.
    const inFlightTiles = toolTiles.get(inFlightTool) ?? 0;
    return { tiles, inFlightTiles, redone: invocations - tiles, status: execution.status };
  } finally {
    await hub.stop();
  }
}

export async function benchSigtermResume(
  root: string,
  o: { workers: number; runs: number; zoom: number; after: number },
) {
  const runs = await repeat(o.runs, () => sigtermOnce(root, o.workers, o.zoom, o.after));
  return {
    tiles: runs[0]!.tiles,
    runs: runs.map(({ inFlightTiles, redone, status }) => ({ inFlightTiles, redone, status })),
    redone: spread(runs.map((r) => r.redone)),
  } satisfies SigtermResume;
}

export async function benchRerunCompleted(root: string, o: { workers: number; runs: number; zoom: number }) {
  let toolStarts = 0;
  const hub = await startLocalHub({
    workers: o.workers,
    pollMs: 250,
    workerEnv: { GEOHUB_RECEIVE_WAIT_S: '1', GEOHUB_LOG_LEVEL: 'info' },
    onWorkerLog: (_l, p) => {
      if (p?.msg === 'tool started') toolStarts += 1;
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
    const tiles = await allManifestTiles(hub.store, started.runId);
    const firstToolStarts = toolStarts;
    // The re-run: every message of the run sent again, as a re-drive of the whole run would.
    const bodies = packMessages(started.runId, tiles, MAX_TILES_PER_MESSAGE);
    const seconds = await repeat(o.runs, async () => {
      const r0 = performance.now();
      await hub.queue.sendBatch(bodies);
      for (;;) {
        const depth = await hub.queue.depth();
        if (depth.visible + depth.inFlight === 0) break;
        await sleep(50);
      }
      return (performance.now() - r0) / 1000;
    });
    const run = await hub.ledger.getRun(started.runId);
    return {
      tiles: tiles.length,
      messages: bodies.length,
      firstRunSeconds: Math.round(firstSeconds * 10) / 10,
      firstRunToolStarts: firstToolStarts,
      rerun: spread(seconds),
      toolInvocations: toolStarts - firstToolStarts,
      done: run?.counters.done,
    };
  } finally {
    await hub.stop();
  }
}
