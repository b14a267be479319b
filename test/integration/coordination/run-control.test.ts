import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTiles } from '../../../lib/ledger/tile-records.js';
import { processTable } from '../../../lib/process/process-table.js';
import { isToolProcess } from '../../../lib/process/tool-processes.js';
import { cancelOnHub } from '../../../local/hub/cancel-on-hub.js';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import { ADMINISTRATOR } from '../../../local/stack/stack.js';
import { findFiles } from '../../support/find-files.js';
import { recordToolStarts, startTestHub } from '../../support/hub.js';
import { seedLedgerRun } from '../../support/ledger-run.js';
import { slowGeoTiff } from '../../support/raster-fixtures.js';
import { tempDir } from '../../support/temp-dir.js';
import { waitUntil } from '../../support/wait-until.js';

let hub: LocalHub;
const toolStarts: { runId: string; pid: number }[] = [];
// While this file exists every tile upload fails, as a broken dependency would: the cause an
// operator removes before a re-drive. (A run is pinned to its source's bytes, so replacing the
// source is a new run, not a fix for this one.)
const flagDir = mkdtempSync(join(tmpdir(), 'geohub-flag-'));
const uploadsFail = join(flagDir, 'uploads-fail');

beforeAll(async () => {
  hub = await startTestHub({
    breaker: { minSample: 4, failureRatio: 0.5 },
    workerEnv: { GEOHUB_LOG_LEVEL: 'info', GEOHUB_FAULT: `fail-upload:tiles/:${uploadsFail}` },
    onWorkerLog: recordToolStarts(toolStarts),
  });
});
afterAll(async () => {
  await hub?.stop();
  rmSync(flagDir, { recursive: true, force: true });
});

const gdalProcesses = () => processTable().filter(isToolProcess);

describe('run control on the local stack', () => {
  it('stopping the execution mid-run cancels the run: no tool survives, no .part, no claim held', async () => {
    const started = await hub.upload(slowGeoTiff(tempDir('geohub-slowtif-')), {
      job: { zoom: 13, resampling: 'lanczos' },
    });
    if (started.outcome !== 'started') throw new Error(`not started: ${JSON.stringify(started)}`);
    expect(await waitUntil(() => toolStarts.some((t) => t.runId === started.runId), 60_000)).toBe(true);
    const stoppedAt = Date.now();
    await hub.executions.stop(started.executionArn);
    expect(hub.executions.get(started.executionArn)?.status).toBe('ABORTED');

    expect((await hub.ledger.getRun(started.runId))?.status).toBe('CANCELLED');
    const pids = toolStarts.filter((t) => t.runId === started.runId).map((t) => t.pid);
    expect(await waitUntil(() => !gdalProcesses().some((p) => pids.includes(p.pgid)), 30_000, 50)).toBe(true);
    // The run watch interval plus SIGTERM to a cooperative gdalwarp: the figure is logged; the
    // bound only tells a prompt stop from a warp left to finish (performance is the bench's).
    const stopMs = Date.now() - stoppedAt;
    console.info(`execution stopped → tools gone: ${stopMs} ms`);
    expect(stopMs).toBeLessThan(20_000);
    expect(
      await waitUntil(async () => {
        for await (const t of listTiles(hub.ledger, started.runId)) if (t.state === 'CLAIMED') return false;
        return true;
      }, 10_000),
    ).toBe(true);
    // Discarding the .part and releasing the claim are independent steps of the cleanup: wait for both.
    // This hub's scratch, this run's files (out/<runId>/): another file's run may be mid-write.
    const parts = () =>
      hub.pool
        .scratchDirs()
        .flatMap((d) => findFiles(d, (n) => n.endsWith('.part')))
        .filter((p) => p.split(sep).includes(started.runId));
    await waitUntil(() => parts().length === 0, 10_000);
    expect(parts()).toEqual([]);
    const run = await hub.ledger.getRun(started.runId);
    expect(run?.counters.done).toBeLessThan(run!.counters.total);
  });

  // Catches: a cancel that only stops executions (a run whose trigger died between planning it and
  // starting its execution would stay RUNNING for ever), and an operator policy without that write.
  it('cancelling a run whose execution never started records it CANCELLED, as the operator', async () => {
    const { runId } = await seedLedgerRun(hub.principal(ADMINISTRATOR).ledger, 1, 16);
    const run = await cancelOnHub(hub, runId);
    expect(run).toMatchObject({ status: 'CANCELLED', reason: 'cancelled by an operator' });
  });

  it('a run whose every upload fails opens the breaker, drains, fails naming it; re-drive after the fix finishes the run', async () => {
    writeFileSync(uploadsFail, '');
    const started = await hub.upload(
      new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname,
      {
        job: { zoom: 10 },
      },
    );
    if (started.outcome !== 'started') throw new Error(`not started: ${JSON.stringify(started)}`);
    const execution = await hub.executions.wait(started.executionArn);
    expect(execution.status).toBe('FAILED');
    expect(execution.error).toBe('BreakerOpenError');
    expect(execution.states).toContain('CircuitBreakerOpen');
    const failed = await hub.ledger.getRun(started.runId);
    expect(failed?.status).toBe('FAILED');
    expect(failed?.breaker).toBe('OPEN');
    expect(failed?.reason).toMatch(/circuit breaker open: \d+ of \d+ attempts failed/);
    // Nothing of the run is left queued or in flight; all of it is accounted for.
    const c = failed!.counters;
    expect(c.done + c.failed + c.parked + c.cancelled).toBe(c.total);

    // Remove the cause, then re-drive with a fresh budget.
    rmSync(uploadsFail);
    const report = await hub.redrive(started.runId);
    const redriven = report.runs.find((r) => r.runId === started.runId)!;
    expect(redriven.unparked).toBe(c.total - c.done);
    const resumed = await hub.executions.wait(redriven.executionArn!);
    expect(resumed.status).toBe('SUCCEEDED');
    const after = await hub.ledger.getRun(started.runId);
    expect(after?.status).toBe('SUCCEEDED');
    expect(after?.counters.done).toBe(after?.counters.total);
  });
});
