/**
 * Cancel latency through a real worker, from stopping the run's execution (which includes the
 * run-status poll) to: the tool's process group dead, the `.part` outputs gone, the claim
 * released. (1) A cooperative tool: the metatile engine on a slow block. (2) A tool that ignores
 * SIGTERM: the worker's engine replaced (GEOHUB_GDAL_PYTHON) by one that writes into its `.part`
 * outputs, ignores SIGTERM and never ends; it must die at the kill grace (default 10 s), not later.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countClaims } from '../lib/ledger/tile-records.js';
import { processTable } from '../lib/process/process-table.js';
import { startLocalHub } from '../local/hub/local-hub.js';
import { slowGeoTiff } from '../test/support/raster-fixtures.js';
import { repeat, type Spread, spread } from './support/stats.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (from: number) => Math.round(performance.now() - from);

export interface CancelFigures {
  readonly groupDeadMs: Spread;
  readonly partGoneMs: Spread;
  readonly claimReleasedMs: Spread;
  /** Runs in which the tool had written into its .part outputs before the cancel. */
  readonly partsWritten: number;
}

/** A stand-in for the engine's interpreter: writes into every output, ignores SIGTERM, never ends. */
function stubbornEngine(dir: string): string {
  const script = join(dir, 'stubborn-engine.py');
  writeFileSync(
    script,
    [
      'import json, signal, sys, time',
      'signal.signal(signal.SIGTERM, signal.SIG_IGN)',
      'request = json.loads(sys.stdin.readline())',
      // A request {"run", "config", "spec"} as the worker sends it (engine-request.ts), or a bare spec.
      "for t in request.get('spec', request)['tiles']:",
      "    open(t['output'], 'w').write('partial')",
      'while True:',
      '    time.sleep(1)',
      '',
    ].join('\n'),
  );
  // Called as `<interpreter> warp-metatile.py --serve` when the worker starts, one request a line on
  // stdin: runs the stand-in.
  const path = join(dir, 'stubborn-engine.sh');
  writeFileSync(path, `#!/bin/sh\nexec /usr/bin/python3 ${script}\n`);
  chmodSync(path, 0o755);
  return path;
}

async function cancelOnce(file: string, job: Record<string, unknown>, workerEnv: Record<string, string>) {
  let toolPid = 0;
  let toolRun = '';
  const hub = await startLocalHub({
    workers: 1,
    pollMs: 250,
    workerEnv: { GEOHUB_RECEIVE_WAIT_S: '1', GEOHUB_LOG_LEVEL: 'info', ...workerEnv },
    onWorkerLog: (_l, p) => {
      if (p?.msg === 'tool started') {
        toolPid = Number(p.pid);
        toolRun = String(p.runId);
      }
    },
  });
  try {
    const started = await hub.upload(file, { job });
    if (started.outcome !== 'started') throw new Error('cancel bench did not start');
    while (toolRun !== started.runId) await sleep(10);
    await sleep(500);
    const partsWritten = poolParts().length > 0;
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
      if (ms(t0) > 60_000) throw new Error('cancel bench: not everything was cleaned up within 60 s');
      await sleep(5);
    }
    return { groupDead, partGone: Math.max(partGone, groupDead), claimReleased, partsWritten };
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

const figures = (runs: Awaited<ReturnType<typeof cancelOnce>>[]): CancelFigures => ({
  groupDeadMs: spread(runs.map((r) => r.groupDead)),
  partGoneMs: spread(runs.map((r) => r.partGone)),
  claimReleasedMs: spread(runs.map((r) => r.claimReleased)),
  partsWritten: runs.filter((r) => r.partsWritten).length,
});

export async function benchCancelCooperative(runs: number): Promise<CancelFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'geohub-slowtif-'));
  try {
    const slow = slowGeoTiff(dir);
    return figures(await repeat(runs, () => cancelOnce(slow, { zoom: 12, resampling: 'lanczos' }, {})));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchCancelStubborn(root: string, dir: string, runs: number) {
  const engine = stubbornEngine(dir);
  const rgb = join(root, 'examples/raster/RGB.byte.tif');
  return {
    graceMs: 10_000,
    ...figures(await repeat(runs, () => cancelOnce(rgb, { zoom: 8 }, { GEOHUB_GDAL_PYTHON: engine }))),
  };
}
