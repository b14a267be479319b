/**
 * Cancel latency, from the cancel to: the tool's process group dead, the `.part` gone, the
 * claim released. (1) A cooperative child (gdalwarp on a slow tile) in a real worker, cancelled
 * by stopping the run's execution — includes the run-status poll. (2) A child that ignores
 * SIGTERM, through the same runner, atomic output and ledger release the worker uses: it dies
 * at the kill grace (default 10 s), not later.
 */
import { chmodSync, existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAwsClients } from '../lib/aws/clients.js';
import { createDynamoLedger } from '../lib/ledger/dynamodb-ledger.js';
import { countClaims } from '../lib/ledger/tile-records.js';
import { tileIdFor } from '../lib/model/ids.js';
import { metatileOf } from '../lib/model/metatile.js';
import { withAtomicOutput } from '../lib/output/atomic-output.js';
import { processTable } from '../lib/process/process-table.js';
import { runProcess } from '../lib/process/run-process.js';
import { startLocalHub } from '../local/hub/local-hub.js';
import { startLocalStack } from '../local/stack/stack.js';
import { slowGeoTiff } from '../test/support/raster-fixtures.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (from: number) => Math.round(performance.now() - from);

export async function benchCancelCooperative() {
  let toolPid = 0;
  let toolRun = '';
  const hub = await startLocalHub({
    workers: 1,
    pollMs: 250,
    workerEnv: { GEOHUB_RECEIVE_WAIT_S: '1', GEOHUB_LOG_LEVEL: 'info' },
    onWorkerLog: (_l, p) => {
      if (p?.msg === 'tool started') {
        toolPid = Number(p.pid);
        toolRun = String(p.runId);
      }
    },
  });
  try {
    const started = await hub.upload(slowGeoTiff(), { job: { zoom: 12, resampling: 'lanczos' } });
    if (started.outcome !== 'started') throw new Error('cancel bench did not start');
    while (toolRun !== started.runId) await sleep(10);
    await sleep(500);
    const t0 = performance.now();
    void hub.executions.stop(started.executionArn);
    let groupDead = -1;
    let claimReleased = -1;
    let partGone = -1;
    while (groupDead < 0 || claimReleased < 0 || partGone < 0) {
      if (groupDead < 0 && !processTable().some((p) => p.pgid === toolPid && p.state !== 'Z'))
        groupDead = ms(t0);
      if (claimReleased < 0) {
        if ((await countClaims(hub.ledger, started.runId)) === 0) claimReleased = ms(t0);
      }
      if (partGone < 0 && !poolParts().length) partGone = ms(t0);
      if (ms(t0) > 30_000) break;
      await sleep(5);
    }
    return {
      groupDeadMs: groupDead,
      partGoneMs: Math.max(partGone, groupDead),
      claimReleasedMs: claimReleased,
    };
  } finally {
    await hub.stop();
  }
}

function poolParts(): string[] {
  const find = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? find(join(dir, e.name)) : e.name.endsWith('.part') ? [join(dir, e.name)] : [],
    );
  return readdirSync(tmpdir())
    .filter((d) => d.startsWith('geohub-pool-'))
    .flatMap((d) => {
      try {
        return find(join(tmpdir(), d));
      } catch {
        return [];
      }
    });
}

export async function benchCancelStubborn(graceMs = 10_000) {
  const stack = await startLocalStack();
  const clients = createAwsClients(stack.config);
  try {
    const ledger = createDynamoLedger(clients.documents, stack.config.table);
    const runId = 'r-bench-cancel-stubborn';
    await ledger.createRun({
      runId,
      status: 'RUNNING',
      source: { bucket: stack.config.bucket, key: 'k', version: '1' },
      operation: 'raster-xyz',
      params: {},
      paramsVersion: 'v1',
      total: 1,
    });
    const tile = { z: 1, x: 0, y: 0 };
    const task = { id: tileIdFor(runId, 'raster-xyz', 'v1', tile), ...tile };
    const metatile = metatileOf([task]);
    await ledger.claim(runId, metatile, 'bench', 60_000);
    const dir = mkdtempSync(join(tmpdir(), 'geohub-stubborn-'));
    const script = join(dir, 'stubborn.sh');
    // Writes into its output, ignores SIGTERM: only SIGKILL stops it.
    writeFileSync(script, '#!/bin/sh\ntrap \'\' TERM\necho partial > "$1"\nwhile :; do sleep 1; done\n');
    chmodSync(script, 0o755);
    const final = join(dir, 'out', '1.tif');
    const controller = new AbortController();
    let t0 = 0;
    let partSeen = false;
    let groupDead = -1;
    const work = withAtomicOutput(final, async (part) => {
      setTimeout(() => {
        partSeen = existsSync(part);
        t0 = performance.now();
        controller.abort('run cancelled');
      }, 500);
      await runProcess(script, [part], { signal: controller.signal, timeoutMs: 600_000, graceMs }).finally(
        () => {
          groupDead = ms(t0);
        },
      );
    }).catch(() => {});
    await work;
    const partGone = ms(t0);
    await ledger.release(runId, metatile, 'bench', {
      state: 'CANCELLED',
      error: { class: 'RunStoppedError', message: 'bench' },
    });
    const claimReleased = ms(t0);
    return {
      graceMs,
      partWasWritten: partSeen,
      groupDeadMs: groupDead,
      partGoneMs: partGone,
      claimReleasedMs: claimReleased,
      finalExists: existsSync(final),
    };
  } finally {
    clients.destroy();
    await stack.stop();
  }
}
