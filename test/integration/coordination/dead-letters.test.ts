import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTiles } from '../../../lib/ledger/tile-records.js';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import { startTestHub } from '../../support/hub.js';

const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const flagDir = mkdtempSync(join(tmpdir(), 'geohub-fault-'));
const faultFlag = join(flagDir, 'upload-fails');
let hub: LocalHub;

beforeAll(async () => {
  hub = await startTestHub({
    // One sub-tile's uploads fail while the flag file exists: a cause a test can remove. It fails
    // its whole metatile (16 of this run's 20 sub-tiles), which is what a breaker is for; this
    // test is about the dead-letter path, so the breaker is kept out of it.
    breaker: { minSample: 1_000_000, failureRatio: 1 },
    workerEnv: { GEOHUB_FAULT: `fail-upload:/9/146/219.tif:${faultFlag}`, GEOHUB_LOG_LEVEL: 'info' },
  });
});
afterAll(async () => {
  await hub?.stop();
  rmSync(flagDir, { recursive: true, force: true });
});

describe('dead letters', () => {
  it('a metatile that always fails lands in the DLQ after maxReceiveCount; re-drive returns it', async () => {
    writeFileSync(faultFlag, 'uploads of /9/146/ fail while this file exists');
    const started = await hub.upload(RGB, { name: 'dlq.tif', job: { zoom: 9 } });
    if (started.outcome !== 'started') throw new Error(`not started: ${JSON.stringify(started)}`);
    const execution = await hub.executions.wait(started.executionArn);
    expect(execution.status).toBe('FAILED');
    expect(execution.error).toBe('IncompleteRunError');
    const stalled = await hub.ledger.getRun(started.runId);
    expect(stalled?.reason).toMatch(/unaccounted \(dead-lettered\)/);
    expect((await hub.deadLetters.depth()).visible).toBeGreaterThan(0);
    let victim: { tileId: string; attempts: number; error?: { class: string } } | undefined;
    for await (const t of listTiles(hub.ledger, started.runId)) {
      if (t.x === 146 && t.y === 219 && t.state !== 'DONE')
        victim = { tileId: t.tileId, attempts: t.attempts, error: t.error };
    }
    expect(victim?.attempts).toBe(3); // maxReceiveCount

    rmSync(faultFlag);
    const report = await hub.redrive(started.runId);
    const redriven = report.runs.find((r) => r.runId === started.runId)!;
    expect(redriven.fromDeadLetters).toBeGreaterThan(0);
    const resumed = await hub.executions.wait(redriven.executionArn!);
    expect({
      status: resumed.status,
      error: resumed.error,
      cause: resumed.cause,
      states: resumed.states.slice(-4),
    }).toMatchObject({ status: 'SUCCEEDED' });
    expect((await hub.ledger.getRun(started.runId))?.counters.done).toBe(stalled?.counters.total);
    // Catches: a re-drive that sends the dead letters back but does not delete them from the DLQ.
    // Nothing left in the DLQ, visible or held: each dead letter went back once, not twice.
    expect(await hub.deadLetters.depth()).toEqual({ visible: 0, inFlight: 0 });
    expect(existsSync(faultFlag)).toBe(false);
  });
});
