import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countClaims } from '../../../lib/ledger/tile-records.js';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import type { LocalExecution } from '../../../local/statemachine/local-executions.js';
import { startTestHub } from '../../support/hub.js';
import { slowGeoTiff } from '../../support/raster-fixtures.js';
import { tempDir } from '../../support/temp-dir.js';
import { waitUntil } from '../../support/wait-until.js';

// Lowered from AWS's 25,000 so that a run of seconds needs several executions; the progress
// loop hands over at 60 % of it. The same counting and the same failure as at 25,000.
const HISTORY_LIMIT = 70;
let hub: LocalHub;

beforeAll(async () => {
  hub = await startTestHub({ historyLimit: HISTORY_LIMIT, pollMs: 400 });
});
afterAll(async () => {
  await hub?.stop();
});

const executionsOf = (runId: string): LocalExecution[] =>
  hub.executions.list().filter((e) => e.input.runId === runId);

async function settle(runId: string): Promise<LocalExecution[]> {
  // The run is over once every execution of its chain has ended.
  expect(
    await waitUntil(async () => {
      const status = (await hub.ledger.getRun(runId))?.status;
      return status !== 'RUNNING' && executionsOf(runId).every((e) => e.status !== 'RUNNING');
    }, 240_000),
  ).toBe(true);
  await Promise.all(executionsOf(runId).map((e) => e.done));
  return executionsOf(runId);
}

describe('runs longer than one execution’s history', () => {
  it('hands the run over to fresh executions before the limit and ends SUCCEEDED, counters exact', async () => {
    const source = slowGeoTiff(tempDir('geohub-slowtif-'));
    const started = await hub.upload(source, { job: { zoom: 12, resampling: 'lanczos' } });
    if (started.outcome !== 'started') throw new Error(`not started: ${JSON.stringify(started)}`);
    const executions = await settle(started.runId);

    const run = await hub.ledger.getRun(started.runId);
    expect(run?.status).toBe('SUCCEEDED');
    expect(run?.counters).toMatchObject({ done: run?.counters.total, failed: 0, parked: 0, cancelled: 0 });
    expect(run!.counters.total).toBeGreaterThan(0);
    // More than one execution was needed, none came near the limit, all but the last handed over.
    expect(executions.length).toBeGreaterThan(2);
    for (const e of executions) {
      expect({ name: e.name, status: e.status, error: e.error }).toEqual({
        name: e.name,
        status: 'SUCCEEDED',
        error: undefined,
      });
      expect(e.historyEvents).toBeLessThan(HISTORY_LIMIT);
    }
    const last = executions.at(-1)!;
    expect(last.states).toContain('Finalize');
    expect(run?.executionArn).toBe(last.executionArn);
    expect(executions.slice(0, -1).every((e) => e.states.at(-1) === 'HandedOver')).toBe(true);

    // The ledger's chain: the upload's execution, then one per hand-over, in order.
    const chain = await hub.chain.list(started.runId);
    expect(chain.map((l) => l.executionArn)).toEqual(executions.map((e) => e.executionArn));
    expect(chain.map((l) => l.reason)).toEqual(['upload', ...executions.slice(1).map(() => 'handover')]);
    expect(chain.map((l) => l.status)).toEqual([
      ...executions.slice(0, -1).map(() => 'HANDED_OVER'),
      'SUCCEEDED',
    ]);
  });

  it('an execution that dies of the history limit mid-run is recorded with its cause; redrive finishes the run', async () => {
    const source = slowGeoTiff(tempDir('geohub-slowtif-'));
    // No hand-over this time: the limit is lowered under the running execution's feet.
    const started = await hub.upload(source, { name: 'dies.tif', job: { zoom: 12, resampling: 'lanczos' } });
    if (started.outcome !== 'started') throw new Error(`not started: ${JSON.stringify(started)}`);
    const first = hub.executions.get(started.executionArn)!;
    expect(await waitUntil(() => first.states.includes('CheckProgress'), 60_000)).toBe(true);
    hub.executions.setHistoryLimit(first.historyEvents);
    try {
      await first.done;
    } finally {
      hub.executions.setHistoryLimit(HISTORY_LIMIT);
    }
    expect(first.status).toBe('FAILED');
    expect(first.error).toBe('States.Runtime');

    // The EventBridge rule's function recorded it: the run is FAILED with the cause, not RUNNING forever.
    const failed = await hub.ledger.getRun(started.runId);
    expect(failed?.status).toBe('FAILED');
    expect(failed?.reason).toMatch(/^execution failed: States\.Runtime: .*maximum number of history events/);
    const [link] = await hub.chain.list(started.runId);
    expect(link).toMatchObject({
      executionArn: first.executionArn,
      status: 'FAILED',
      error: 'States.Runtime',
    });

    // The workers saw the run FAILED and parked what they held (an operator re-drives a stopped run).
    expect(await waitUntil(async () => (await countClaims(hub.ledger, started.runId)) === 0, 30_000)).toBe(
      true,
    );
    const report = await hub.redrive(started.runId);
    const redriven = report.runs.find((r) => r.runId === started.runId);
    expect(redriven?.executionArn).toBeDefined();
    expect(redriven?.unparked).toBeGreaterThan(0);
    const executions = await settle(started.runId);
    const run = await hub.ledger.getRun(started.runId);
    expect(run?.status).toBe('SUCCEEDED');
    expect(run?.counters).toMatchObject({ done: run?.counters.total, failed: 0 });
    expect(executions[0]?.executionArn).toBe(first.executionArn);
    const chain = await hub.chain.list(started.runId);
    expect(chain[1]).toMatchObject({ executionArn: redriven?.executionArn, reason: 'redrive' });
    expect(chain.at(-1)?.status).toBe('SUCCEEDED');
  });
});
