import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapters } from '../../../lib/adapters/create-adapters.js';
import { parseTileMessage } from '../../../lib/model/message.js';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import { startTestHub } from '../../support/hub.js';
import { poisonedCog } from '../../support/raster-fixtures.js';
import { tempDir } from '../../support/temp-dir.js';
import { waitUntil } from '../../support/wait-until.js';

const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
let hub: LocalHub;
/** SQS calls the coordinator's Lambdas made (drain included), by command. */
const lambdaSqsCalls = new Map<string, number>();

beforeAll(async () => {
  hub = await startTestHub({
    workers: 2,
    breaker: { minSample: 4, failureRatio: 0.5 },
    onAwsRequest: (service, command) => {
      if (service.toLowerCase().includes('sqs'))
        lambdaSqsCalls.set(command, (lambdaSqsCalls.get(command) ?? 0) + 1);
    },
  });
});
afterAll(async () => {
  await hub?.stop();
});

describe('a drain touches only its run', () => {
  it('two runs on one queue: the poisoned one drains and fails; the healthy one SUCCEEDS, none of its messages dead-lettered', async () => {
    const { poisoned } = poisonedCog(tempDir('geohub-poison-'));
    const bad = await hub.upload(poisoned, { name: 'poisoned.tif', job: { zoom: 10 } });
    const good = await hub.upload(RGB, { name: 'healthy.tif', job: { zoom: 11 } });
    if (bad.outcome !== 'started' || good.outcome !== 'started') throw new Error('runs did not start');

    const [badEnd, goodEnd] = await Promise.all([
      hub.executions.wait(bad.executionArn),
      hub.executions.wait(good.executionArn),
    ]);
    expect(badEnd.states).toContain('Drain');
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
    const admin = createAdapters(hub.stack.config);
    const letters = await admin.deadLetters.receive(10, 0, 1).finally(() => admin.destroy());
    const runsInDlq = letters.map((l) => parseTileMessage(l.body)).map((p) => (p.ok ? p.message.runId : '?'));
    expect(runsInDlq).not.toContain(good.runId);
    expect(await waitUntil(async () => (await hub.queue.depth()).visible === 0, 10_000)).toBe(true);
  }, 600_000);
});
