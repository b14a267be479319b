import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkProgress } from '../../../lib/coordination/check-progress.js';
import { parseTileMessage } from '../../../lib/model/message.js';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import { ADMINISTRATOR } from '../../../local/stack/stack.js';
import { startTestHub } from '../../support/hub.js';
import { claimAs, outputsOf, seedLedgerRun } from '../../support/ledger-run.js';

// No workers: the message the progress check sends stays on the queue for the test to read.
let hub: LocalHub;
beforeAll(async () => {
  hub = await startTestHub({ workers: 0 });
});
afterAll(async () => {
  await hub?.stop();
});

describe('the progress check, under its own role', () => {
  // Catches: a check-progress role without sqs:SendMessage on the work queue, and a check that
  // finalizes a run with work still owed (a worker parked its metatile after a re-drive raced it).
  it('a running run whose every metatile is accounted for, one of them stopped with the run: sent again, not finalized', async () => {
    const admin = hub.principal(ADMINISTRATOR);
    const { runId, metatiles } = await seedLedgerRun(admin.ledger, 2, 16);
    const [done, stopped] = metatiles as [(typeof metatiles)[0], (typeof metatiles)[0]];
    await (await claimAs(admin.ledger, runId, done, 'w')).markDone(outputsOf(runId, done), 1);
    await admin.ledger.park(runId, [stopped], 'CANCELLED', {
      class: 'RunStoppedError',
      message: 'the run was cancelled',
    });

    const checker = hub.principal('check-progress');
    const progress = await checkProgress(
      { ...checker, breaker: { minSample: 10, failureRatio: 0.5 }, loopEventBudget: 15_000 },
      runId,
    );
    expect(progress.decision).toBe('WAIT');
    expect((await admin.ledger.getMetatile(runId, stopped.id))?.state).toBe('QUEUED');
    const [message] = await admin.queue.receive(10, 1, 30);
    const parsed = message ? parseTileMessage(message.body) : undefined;
    expect(parsed?.ok && parsed.message).toMatchObject({ runId, tiles: stopped.tiles });
    if (message) await admin.queue.delete(message);
  });
});
