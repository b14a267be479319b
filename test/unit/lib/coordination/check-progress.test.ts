import { describe, expect, it } from 'vitest';
import { checkProgress } from '../../../../lib/coordination/check-progress.js';
import { parseTileMessage } from '../../../../lib/model/message.js';
import { claimAs, outputsOf, seedLedgerRun } from '../../../support/ledger-run.js';
import { createMemoryLedger } from '../../../support/memory-ledger.js';
import { createRecordingQueue } from '../../../support/recording-queue.js';

const stopped = { class: 'RunStoppedError', message: 'run r is CANCELLED' };
const overBudget = { class: 'DeadlineExceededError', message: 'tool over its budget' };

/** A RUNNING run of three metatiles: one done, and two given back as the test says. */
async function accountedRun(stops: { state: 'PARKED' | 'CANCELLED'; error: typeof stopped }[]) {
  const ledger = createMemoryLedger();
  const { runId, metatiles } = await seedLedgerRun(ledger, 3, 4);
  const [done, ...rest] = metatiles;
  await (await claimAs(ledger, runId, done!, 'w', 60_000)).markDone(outputsOf(runId, done!), 1);
  for (const [i, stop] of stops.entries()) {
    await (await claimAs(ledger, runId, rest[i]!, 'w', 60_000)).release(stop);
  }
  const sent: string[] = [];
  const queue = createRecordingQueue();
  const deps = {
    ledger,
    queue: {
      ...queue,
      async sendBatch(bodies: readonly string[]) {
        sent.push(...bodies);
        return queue.sendBatch(bodies);
      },
    },
    deadLetters: createRecordingQueue(),
    breaker: { minSample: 100, failureRatio: 0.5 },
    loopEventBudget: 15_000,
  };
  return { ledger, runId, rest, deps, sent };
}

describe('checkProgress at the end of a running run', () => {
  it('re-sends what was stopped with the run (a re-drive raced the stopping workers) instead of finalizing', async () => {
    const { ledger, runId, rest, deps, sent } = await accountedRun([
      { state: 'CANCELLED', error: stopped },
      { state: 'PARKED', error: stopped },
    ]);
    const progress = await checkProgress(deps, runId);
    expect(progress.decision).toBe('WAIT');
    const resent = sent.map((b) => parseTileMessage(b)).map((p) => (p.ok ? p.message.tiles.length : 0));
    expect(resent).toEqual([4, 4]);
    for (const m of rest) expect((await ledger.getMetatile(runId, m.id))?.state).toBe('QUEUED');
    expect((await ledger.getRun(runId))?.counters).toMatchObject({ done: 4, cancelled: 0, parked: 0 });
    // Nothing more to send: the next check waits for the work, not for a second copy.
    expect((await checkProgress(deps, runId)).decision).toBe('WAIT');
    expect(sent).toHaveLength(2);
  });

  it('finalizes when what is parked is a verdict on the metatile (a tool over its budget)', async () => {
    const { ledger, runId, deps, sent } = await accountedRun([
      { state: 'PARKED', error: overBudget },
      { state: 'PARKED', error: overBudget },
    ]);
    expect((await checkProgress(deps, runId)).decision).toBe('FINALIZE');
    expect(sent).toEqual([]);
    expect((await ledger.getRun(runId))?.counters).toMatchObject({ done: 4, parked: 8 });
  });
});
