import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTileMessage } from '../../../lib/model/message.js';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import { startWorkerPool, type WorkerPool } from '../../../local/pool/worker-pool.js';
import { ADMINISTRATOR } from '../../../local/stack/stack.js';
import { HUB_WORKER_ENV, startTestHub } from '../../support/hub.js';
import { poisonedCog } from '../../support/raster-fixtures.js';
import { tempDir } from '../../support/temp-dir.js';
import { waitUntil } from '../../support/wait-until.js';

const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
let hub: LocalHub;
let workers: WorkerPool | undefined;
/** SQS calls the coordinator's Lambdas made (drain included), by command. */
const lambdaSqsCalls = new Map<string, number>();

beforeAll(async () => {
  // No worker yet: the test starts them once both runs' work is queued (below).
  hub = await startTestHub({
    workers: 0,
    breaker: { minSample: 4, failureRatio: 0.5 },
    onAwsRequest: (service, command) => {
      if (service.toLowerCase().includes('sqs'))
        lambdaSqsCalls.set(command, (lambdaSqsCalls.get(command) ?? 0) + 1);
    },
  });
});
afterAll(async () => {
  await workers?.stop(5_000);
  await hub?.stop();
});

describe('a drain touches only its run', () => {
  it('two runs on one queue: the poisoned one drains and fails; the healthy one SUCCEEDS, none of its messages dead-lettered', async () => {
    const { poisoned } = poisonedCog(tempDir('geohub-poison-'));
    // Both runs' work on the queue before any worker starts, the poisoned run's first: its
    // breaker then opens and its drain runs while the healthy run's messages wait behind.
    const bad = await hub.upload(poisoned, { name: 'poisoned.tif', job: { zoom: 12 } });
    if (bad.outcome !== 'started') throw new Error('the poisoned run did not start');
    const queued = (runId: string) => async () => (await hub.ledger.getRun(runId))?.status === 'RUNNING';
    expect(await waitUntil(queued(bad.runId), 120_000)).toBe(true);
    const good = await hub.upload(RGB, { name: 'healthy.tif', job: { zoom: 12 } });
    if (good.outcome !== 'started') throw new Error('the healthy run did not start');
    expect(await waitUntil(queued(good.runId), 120_000)).toBe(true);
    workers = startWorkerPool({ size: 2, env: { ...hub.stack.envFor('worker'), ...HUB_WORKER_ENV } });
    // The moment the drain ends (the poisoned run leaves DRAINING for FAILED): what the healthy
    // run still had to do then is what a drain that touched it would have taken.
    const atDrainEnd = waitUntil(
      async () => (await hub.ledger.getRun(bad.runId))?.status === 'FAILED',
      300_000,
      10,
    ).then(async (seen) => ({
      seen,
      good: await hub.ledger.getRun(good.runId),
      depth: await hub.queue.depth(),
    }));

    const [badEnd, goodEnd] = await Promise.all([
      hub.executions.wait(bad.executionArn),
      hub.executions.wait(good.executionArn),
    ]);
    expect(badEnd.states).toContain('Drain');
    // Catches: a test that passes because the healthy run had finished before the drain.
    const drainEnd = await atDrainEnd;
    expect(drainEnd.seen).toBe(true);
    expect(drainEnd.good?.counters.total).toBeGreaterThan(0);
    expect(drainEnd.good!.counters.done).toBeLessThan(drainEnd.good!.counters.total);
    expect(drainEnd.depth.visible + drainEnd.depth.inFlight).toBeGreaterThan(0);
    expect({ status: badEnd.status, error: badEnd.error }).toEqual({
      status: 'FAILED',
      error: 'BreakerOpenError',
    });
    expect({ status: goodEnd.status, error: goodEnd.error }).toEqual({
      status: 'SUCCEEDED',
      error: undefined,
    });

    const badRun = await hub.ledger.getRun(bad.runId);
    expect(badRun?.status).toBe('FAILED'); // never left DRAINING
    expect(badRun?.breaker).toBe('OPEN');
    const c = badRun!.counters;
    expect(c.done + c.failed + c.parked + c.cancelled).toBe(c.total);
    const goodRun = await hub.ledger.getRun(good.runId);
    expect(goodRun?.counters).toMatchObject({ done: goodRun?.counters.total, failed: 0, parked: 0 });

    // The drain received nothing: no receive of a healthy message was spent by it.
    expect(lambdaSqsCalls.get('ReceiveMessageCommand') ?? 0).toBe(0);
    expect(lambdaSqsCalls.get('ChangeMessageVisibilityCommand') ?? 0).toBe(0);
    // Every healthy metatile was claimed once: no message of it came back for another receive.
    for await (const m of hub.ledger.listMetatiles(good.runId)) expect(m.attempts).toBe(1);
    // And the dead-letter queue holds nothing of the healthy run.
    // (Read with the stack's own key, the account's administrator: no principal of geohub peeks at it.)
    const letters = await hub.principal(ADMINISTRATOR).deadLetters.receive(10, 0, 1);
    const runsInDlq = letters.map((l) => parseTileMessage(l.body)).map((p) => (p.ok ? p.message.runId : '?'));
    expect(runsInDlq).not.toContain(good.runId);
    expect(await waitUntil(async () => (await hub.queue.depth()).visible === 0, 10_000)).toBe(true);
  }, 600_000);
});
