import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countClaims } from '../../../lib/ledger/tile-records.js';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import { recordToolStarts, startTestHub } from '../../support/hub.js';
import { expectRunComplete } from '../../support/run-complete.js';
import { waitUntil } from '../../support/wait-until.js';

const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
let hub: LocalHub;
const toolStarts: { runId: string; pid: number }[] = [];

beforeAll(async () => {
  hub = await startTestHub({
    workers: 1,
    workerEnv: { GEOHUB_LOG_LEVEL: 'info' },
    onWorkerLog: recordToolStarts(toolStarts),
  });
});
afterAll(async () => {
  await hub?.stop();
});

describe('a claim stranded by a dead worker in a stopped run', () => {
  it('SIGKILL mid-metatile, then the run cancelled, then re-driven: SUCCEEDED, no claim left, every sub-tile one marker with its object', async () => {
    const started = await hub.upload(RGB, { name: 'stranded.tif', job: { zoom: 10 } });
    if (started.outcome !== 'started') throw new Error(`not started: ${JSON.stringify(started)}`);
    const { runId } = started;
    expect(await waitUntil(() => toolStarts.some((t) => t.runId === runId), 60_000, 20)).toBe(true);
    const [worker] = hub.pool.pids();
    process.kill(worker!, 'SIGKILL');
    // The dead worker's claim outlives it (its lease runs on); the run is then cancelled.
    expect(await countClaims(hub.ledger, runId)).toBeGreaterThan(0);
    await hub.executions.stop(started.executionArn);
    expect((await hub.ledger.getRun(runId))?.status).toBe('CANCELLED');
    // Once the lease lapses the claim is parked for the re-drive (by the worker that gets its
    // message back, or by the reaper over every run), never left CLAIMED; the run's other
    // messages are dropped and parked by the restarted worker.
    const accounted = async () => {
      const c = (await hub.ledger.getRun(runId))!.counters;
      return c.done + c.cancelled + c.parked + c.failed === c.total;
    };
    expect(
      await waitUntil(
        async () => {
          await hub.reap();
          return (await countClaims(hub.ledger, runId)) === 0 && (await accounted());
        },
        60_000,
        500,
      ),
    ).toBe(true);
    const cancelled = (await hub.ledger.getRun(runId))!.counters;
    expect(cancelled.cancelled).toBeGreaterThan(0);

    const report = await hub.redrive(runId);
    const redriven = report.runs.find((r) => r.runId === runId)!;
    expect(redriven.unparked).toBe(cancelled.cancelled + cancelled.parked);
    expect((await hub.executions.wait(redriven.executionArn!)).status).toBe('SUCCEEDED');

    await expectRunComplete(hub.ledger, hub.store, runId);
  });
});
