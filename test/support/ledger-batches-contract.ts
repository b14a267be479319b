import { expect, it } from 'vitest';
import { stoppedWithItsRun } from '../../lib/coordination/stale-stops.js';
import type { Ledger } from '../../lib/ledger/ledger.js';
import { claimAs, outputsOf, seedLedgerRun } from './ledger-run.js';

const stopped = { class: 'RunStoppedError', message: 'run cancelled' };
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Parking, re-drive and the reaper, as every Ledger must do them: run against the DynamoDB
 * adapter (integration) and the in-memory ledger (unit), so both keep one semantics.
 */
export function ledgerBatchesContract(ledger: () => Ledger) {
  // The bug it catches: a run head that lags the run (an eventually consistent read: a cancel
  // the worker does not see) or lacks what the worker reads (source, params, status, reason).
  it('the run head is the run without its counters, read after every change', async () => {
    const l = ledger();
    const { runId, metatiles } = await seedLedgerRun(l, 2, 2);
    await (await claimAs(l, runId, metatiles[0]!, 'w', 60_000)).markDone(outputsOf(runId, metatiles[0]!), 1);
    await l.updateRun(runId, { status: 'CANCELLED', reason: 'operator' });
    const { counters, ...rest } = (await l.getRun(runId))!;
    expect(counters.done).toBe(2);
    expect(await l.getRunHead(runId)).toEqual(rest);
    expect(await l.getRunHead('r-00000000000000000000')).toBeUndefined();
  });

  it('park takes untouched (the first), queued and dead workers’ claims, never a live claim or a marker', async () => {
    const l = ledger();
    const { runId, metatiles } = await seedLedgerRun(l, 5, 2);
    const [, queued, dead, live, done] = metatiles;
    await (await claimAs(l, runId, queued!, 'w', 60_000)).release({ state: 'QUEUED' });
    await l.claim(runId, dead!, 'dead', 1);
    await l.claim(runId, live!, 'live', 60_000);
    await (await claimAs(l, runId, done!, 'w', 60_000)).markDone(outputsOf(runId, done!), 1);
    await pause(20);
    await l.updateRun(runId, { status: 'CANCELLED' });
    await l.park(runId, metatiles, 'CANCELLED', stopped);
    const states = await Promise.all(metatiles.map(async (m) => (await l.getMetatile(runId, m.id))?.state));
    expect(states).toEqual(['CANCELLED', 'CANCELLED', 'CANCELLED', 'CLAIMED', 'DONE']);
    expect((await l.getMetatile(runId, dead!.id))?.owner).toBeUndefined();
    expect((await l.getRun(runId))?.counters).toMatchObject({ cancelled: 6, done: 2 });
    // Parking twice counts once.
    await l.park(runId, metatiles, 'CANCELLED', stopped);
    expect((await l.getRun(runId))?.counters.cancelled).toBe(6);
  });

  it('unpark re-drives parked, cancelled, failed and stranded claims, with fresh budgets and counters', async () => {
    const l = ledger();
    const { runId, metatiles } = await seedLedgerRun(l, 5, 3);
    const [parked, failed, stranded, live, done] = metatiles;
    await l.park(runId, [parked!], 'PARKED', stopped);
    await (await claimAs(l, runId, failed!, 'w', 60_000)).markFailed({
      class: 'TileDataError',
      message: 'bad',
    });
    await l.claim(runId, stranded!, 'dead', 1);
    await l.claim(runId, live!, 'live', 60_000);
    await (await claimAs(l, runId, done!, 'w', 60_000)).markDone(outputsOf(runId, done!), 1);
    await pause(20);
    const moved = await l.unpark(runId);
    expect(new Set(moved.map((m) => m.id))).toEqual(new Set([parked!.id, failed!.id, stranded!.id]));
    // The metatile comes back whole, so its message re-forms the same block and finds its item.
    const back = moved.find((m) => m.id === stranded!.id);
    expect(back?.tiles.map((t) => t.id)).toEqual(stranded!.tiles.map((t) => t.id));
    for (const m of moved)
      expect(await l.getMetatile(runId, m.id)).toMatchObject({ state: 'QUEUED', attempts: 0 });
    expect((await l.getRun(runId))?.counters).toMatchObject({ parked: 0, failed: 0, done: 3 });
    expect((await l.getMetatile(runId, live!.id))?.state).toBe('CLAIMED');
  });

  it("a collection metatile's members go where its tiles go: claimed, parked, stranded, re-driven", async () => {
    const l = ledger();
    const { runId, metatiles } = await seedLedgerRun(l, 3, 2);
    const [parked, stranded, failed] = metatiles.map((m, i) => ({ ...m, members: [i, 40 + i] }));
    await l.park(runId, [parked!], 'PARKED', stopped);
    await l.claim(runId, stranded!, 'dead', 1);
    await (await claimAs(l, runId, failed!, 'w', 60_000)).markFailed({
      class: 'TileDataError',
      message: 'bad',
    });
    expect((await l.getMetatile(runId, stranded!.id))?.members).toEqual([1, 41]);
    await pause(20);
    const moved = await l.unpark(runId);
    // The re-sent message must name the same members, or the worker would read other files.
    expect(new Map(moved.map((m) => [m.id, m.members]))).toEqual(
      new Map([parked!, stranded!, failed!].map((m) => [m.id, m.members])),
    );
  });

  it('unpark with a filter re-drives only the stopped metatiles it accepts: no claim, no failure', async () => {
    const l = ledger();
    const { runId, metatiles } = await seedLedgerRun(l, 5, 2);
    const [cancelled, withRun, overBudget, failed, stranded] = metatiles;
    await l.park(runId, [cancelled!], 'CANCELLED', stopped);
    await l.park(runId, [withRun!], 'PARKED', stopped);
    await (await claimAs(l, runId, overBudget!, 'w', 60_000)).release({
      state: 'PARKED',
      error: { class: 'DeadlineExceededError', message: 'over budget' },
    });
    await (await claimAs(l, runId, failed!, 'w', 60_000)).markFailed({
      class: 'TileDataError',
      message: 'bad',
    });
    await l.claim(runId, stranded!, 'dead', 1);
    await pause(20);
    const moved = await l.unpark(runId, stoppedWithItsRun);
    expect(new Set(moved.map((m) => m.id))).toEqual(new Set([cancelled!.id, withRun!.id]));
    const states = await Promise.all(metatiles.map(async (m) => (await l.getMetatile(runId, m.id))?.state));
    expect(states).toEqual(['QUEUED', 'QUEUED', 'PARKED', 'FAILED', 'CLAIMED']);
    expect((await l.getRun(runId))?.counters).toMatchObject({ cancelled: 0, parked: 2, failed: 2 });
    // Twice moves nothing more.
    expect(await l.unpark(runId, stoppedWithItsRun)).toEqual([]);
  });

  it('the reaper frees expired leases in every run whatever its state, and only those', async () => {
    const l = ledger();
    const running = await seedLedgerRun(l, 2, 2);
    const cancelled = await seedLedgerRun(l, 1, 2);
    const draining = await seedLedgerRun(l, 1, 2);
    await l.claim(running.runId, running.metatiles[0]!, 'gone', 1);
    await l.claim(running.runId, running.metatiles[1]!, 'alive', 60_000);
    await l.claim(cancelled.runId, cancelled.metatiles[0]!, 'gone', 1);
    await l.claim(draining.runId, draining.metatiles[0]!, 'gone', 1);
    await l.updateRun(cancelled.runId, { status: 'CANCELLED' });
    await l.updateRun(draining.runId, { status: 'DRAINING' });
    await pause(20);
    expect(await l.reapExpiredLeases(Date.now())).toBeGreaterThanOrEqual(3);
    expect(await l.getMetatile(running.runId, running.metatiles[0]!.id)).toMatchObject({ state: 'QUEUED' });
    expect((await l.getMetatile(running.runId, running.metatiles[0]!.id))?.owner).toBeUndefined();
    expect(await l.getMetatile(running.runId, running.metatiles[1]!.id)).toMatchObject({
      state: 'CLAIMED',
      owner: 'alive',
    });
    // A stopped run's stranded claim is kept for its re-drive, and counted as such.
    expect((await l.getMetatile(cancelled.runId, cancelled.metatiles[0]!.id))?.state).toBe('CANCELLED');
    expect((await l.getRun(cancelled.runId))?.counters.cancelled).toBe(2);
    expect((await l.getMetatile(draining.runId, draining.metatiles[0]!.id))?.state).toBe('PARKED');
    expect((await l.getRun(draining.runId))?.counters.parked).toBe(2);
    expect(await l.unpark(cancelled.runId)).toHaveLength(1);
  });
}
