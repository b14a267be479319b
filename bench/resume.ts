/**
 * Resume costs: (1) sub-tiles redone after a SIGTERM to a worker mid-run (target: at most
 * the one it had in flight); (2) a re-run of a completed 10,000-sub-tile run (target:
 * seconds, no tool work) — every sub-tile already has its marker, so each message costs one
 * batched ledger read and a delete.
 */
import { join } from 'node:path';
import { groupMetatiles } from '../lib/enqueue/pack-messages.js';
import { tileIdFor } from '../lib/model/ids.js';
import { MAX_TILES_PER_MESSAGE, serializeTileMessage } from '../lib/model/message.js';
import { manifestTiles } from '../local/chaos/manifest-tiles.js';
import { startLocalHub } from '../local/hub/local-hub.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function benchSigtermResume(root: string) {
  const starts = new Map<string, number>();
  let done = 0;
  const hub = await startLocalHub({
    workers: 2,
    pollMs: 250,
    workerEnv: { GEOHUB_RECEIVE_WAIT_S: '1', GEOHUB_LOG_LEVEL: 'info' },
    onWorkerLog: (_l, p) => {
      if (p?.msg === 'tool started') starts.set(String(p.tileId), (starts.get(String(p.tileId)) ?? 0) + 1);
      if (p?.msg === 'metatile done') done += Number(p.tiles ?? 1);
    },
  });
  try {
    const started = await hub.upload(join(root, 'examples/raster/RGB.byte.tif'), { job: { zoom: 11 } });
    if (started.outcome !== 'started') throw new Error('resume bench did not start');
    while (done < 60) await sleep(20);
    const victim = hub.pool.activity()[0]!;
    const inFlight = victim.doing.msg === 'tool started' ? 1 : 0;
    process.kill(victim.pid, 'SIGTERM');
    const execution = await hub.executions.wait(started.executionArn);
    const tiles = (await manifestTiles(hub.store, started.runId)).length;
    const invocations = [...starts.values()].reduce((a, b) => a + b, 0);
    return {
      status: execution.status,
      tiles,
      invocations,
      redone: invocations - tiles,
      inFlightAtSigterm: inFlight,
    };
  } finally {
    await hub.stop();
  }
}

export async function benchRerunCompleted(tiles = 10_000) {
  let toolStarts = 0;
  const hub = await startLocalHub({
    workers: 2,
    pollMs: 250,
    workerEnv: { GEOHUB_RECEIVE_WAIT_S: '1', GEOHUB_LOG_LEVEL: 'info' },
    onWorkerLog: (_l, p) => {
      if (p?.msg === 'tool started') toolStarts += 1;
    },
  });
  try {
    // A completed run: every sub-tile marked, as a finished run leaves the ledger.
    const runId = 'r-bench-rerun-10000';
    await hub.ledger.createRun({
      runId,
      status: 'RUNNING',
      source: { bucket: hub.store.bucket, key: 'incoming/bench.tif', version: '1' },
      operation: 'raster-xyz',
      params: {},
      paramsVersion: 'v1',
      total: tiles,
    });
    const side = Math.ceil(Math.sqrt(tiles));
    const tasks = Array.from({ length: tiles }, (_, i) => {
      const t = { z: 16, x: 10_000 + (i % side), y: 20_000 + Math.floor(i / side) };
      return { id: tileIdFor(runId, 'raster-xyz', 'v1', t), ...t };
    });
    const seedStart = performance.now();
    const metatiles = groupMetatiles(tasks, MAX_TILES_PER_MESSAGE);
    for (let i = 0; i < metatiles.length; i += 32) {
      await Promise.all(
        metatiles.slice(i, i + 32).map(async (m) => {
          await hub.ledger.claim(runId, m, 'seed', 60_000);
          const outputs = new Map(
            m.tiles.map((t) => [
              t.id,
              { key: `tiles/${runId}/${t.z}/${t.x}/${t.y}.tif`, etag: 'e', bytes: 1 },
            ]),
          );
          await hub.ledger.markDone(runId, m, 'seed', outputs, 1);
        }),
      );
    }
    const seedSeconds = (performance.now() - seedStart) / 1000;
    // The re-run: every message of the run sent again, one per metatile.
    const bodies = metatiles.map((m) => serializeTileMessage({ v: 1, runId, tiles: [...m.tiles] }));
    const t0 = performance.now();
    await hub.queue.sendBatch(bodies);
    for (;;) {
      const depth = await hub.queue.depth();
      if (depth.visible + depth.inFlight === 0) break;
      await sleep(100);
    }
    const rerunSeconds = (performance.now() - t0) / 1000;
    const run = await hub.ledger.getRun(runId);
    return {
      tiles,
      messages: bodies.length,
      rerunSeconds,
      toolInvocations: toolStarts,
      done: run?.counters.done,
      seedSeconds,
    };
  } finally {
    await hub.stop();
  }
}
