import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countClaims } from '../../../lib/ledger/tile-records.js';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import { expectSucceeded } from '../../support/expect-succeeded.js';
import { recordToolStarts, startTestHub } from '../../support/hub.js';
import { expectRunComplete } from '../../support/run-complete.js';
import { SPEC_AS_ARGUMENT } from '../../support/stubborn-tool.js';
import { waitUntil } from '../../support/wait-until.js';

const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
let hub: LocalHub;
const toolStarts: { runId: string; pid: number }[] = [];
let bin: string;

beforeAll(async () => {
  // The metatile engine behind a start-up that ignores SIGTERM: a worker told to cancel holds its
  // claim for the kill grace (2 s here) before it gives the metatile back as CANCELLED.
  bin = mkdtempSync(join(tmpdir(), 'geohub-slow-engine-'));
  const engine = join(bin, 'python');
  writeFileSync(
    engine,
    ['#!/bin/bash', ...SPEC_AS_ARGUMENT, "trap '' TERM", 'sleep 3', 'exec /usr/bin/python3 "$@"', ''].join(
      '\n',
    ),
  );
  chmodSync(engine, 0o755);
  hub = await startTestHub({
    workers: 2,
    workerEnv: { GEOHUB_LOG_LEVEL: 'info', GEOHUB_GDAL_PYTHON: engine },
    onWorkerLog: recordToolStarts(toolStarts),
  });
}, 120_000);
afterAll(async () => {
  await hub?.stop();
  rmSync(bin, { recursive: true, force: true });
});

describe('a re-drive racing the workers that stop its run', () => {
  it('SIGKILL mid-metatile, cancel, re-drive at once while a worker still holds a claim: SUCCEEDED, nothing left parked or claimed', async () => {
    const started = await hub.upload(RGB, { name: 'race.tif', job: { zoom: 10 } });
    if (started.outcome !== 'started') throw new Error(`not started: ${JSON.stringify(started)}`);
    const { runId } = started;
    // Both workers mid-metatile: one is killed, the other will be told to stop.
    expect(
      await waitUntil(
        async () =>
          toolStarts.filter((t) => t.runId === runId).length >= 2 &&
          (await countClaims(hub.ledger, runId)) >= 2,
        60_000,
        50,
      ),
    ).toBe(true);
    const [victim] = hub.pool.pids();
    process.kill(victim!, 'SIGKILL');
    await hub.executions.stop(started.executionArn);
    expect((await hub.ledger.getRun(runId))?.status).toBe('CANCELLED');

    // Re-driven at once: the dead worker's lease (6 s) and the surviving worker, inside its kill
    // grace (2 s), still hold live claims, which the re-drive must skip.
    expect(await countClaims(hub.ledger, runId)).toBeGreaterThan(0);
    const report = await hub.redrive(runId);
    const redriven = report.runs.find((r) => r.runId === runId)!;
    const execution = await hub.executions.wait(redriven.executionArn!);
    expectSucceeded(execution);

    await expectRunComplete(hub.ledger, hub.store, runId);
  });
});
