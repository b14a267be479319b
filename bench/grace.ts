/**
 * The kill grace, measured where Seed A says to measure it: SIGTERM to the metatile engine's
 * process group while it warps, to the group gone, for an engine reading its source from the S3
 * stand-in through GDAL's /vsis3/ (ranged GETs, GEOHUB_SOURCE_ACCESS=ranged, what a large source
 * gets on AWS) and for one reading a local copy (`cached`, a small source). The signal is sent as
 * the worker's terminateGroup sends it: to the whole group.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { groupGone } from '../lib/process/terminate-group.js';
import { startLocalHub } from '../local/hub/local-hub.js';
import { slowGeoTiff } from '../test/support/raster-fixtures.js';
import { repeat, type Spread, spread } from './support/stats.js';

export interface GraceFigures {
  /** SIGTERM → group gone, the engine reading its source by ranged GETs from the S3 stand-in. */
  readonly vsis3Ms: Spread;
  /** The same, the engine reading a local copy of its source. */
  readonly localMs: Spread;
  /** The worker's default (GEOHUB_KILL_GRACE_MS). */
  readonly graceMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function termOnce(file: string, access: 'ranged' | 'cached'): Promise<number> {
  let tool: { pid: number; runId: string } | undefined;
  const hub = await startLocalHub({
    workers: 1,
    pollMs: 250,
    workerEnv: { GEOHUB_RECEIVE_WAIT_S: '1', GEOHUB_LOG_LEVEL: 'info', GEOHUB_SOURCE_ACCESS: access },
    onWorkerLog: (_l, p) => {
      if (p?.msg === 'tool started') tool = { pid: Number(p.pid), runId: String(p.runId) };
    },
  });
  try {
    const started = await hub.upload(file, { job: { zoom: 12, resampling: 'lanczos' } });
    if (started.outcome !== 'started') throw new Error('grace bench: the run did not start');
    while (tool?.runId !== started.runId) await sleep(10);
    // Well inside the warp (1–2 s a metatile on this source): reading blocks as it resamples.
    await sleep(500);
    const pgid = tool.pid;
    if (groupGone(pgid)) throw new Error('grace bench: the engine ended before the signal');
    const t0 = performance.now();
    process.kill(-pgid, 'SIGTERM');
    while (!groupGone(pgid)) {
      if (performance.now() - t0 > 60_000) throw new Error('grace bench: the group outlived SIGTERM by 60 s');
      await sleep(1);
    }
    return Math.round((performance.now() - t0) * 10) / 10;
  } finally {
    await hub.stop();
  }
}

export async function benchGrace(runs: number, graceMs: number): Promise<GraceFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'geohub-grace-'));
  try {
    const slow = slowGeoTiff(dir);
    const vsis3 = await repeat(runs, () => termOnce(slow, 'ranged'));
    const local = await repeat(runs, () => termOnce(slow, 'cached'));
    return { vsis3Ms: spread(vsis3), localMs: spread(local), graceMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
