import { describe, expect, it } from 'vitest';
import { LeaseLostError } from '../../lib/ledger/errors.js';
import { type CounterField, zeroCounters } from '../../lib/ledger/items.js';
import type { ClaimHandle, Ledger } from '../../lib/ledger/ledger.js';
import type { Metatile } from '../../lib/model/metatile.js';
import { claimAs, outputsOf, seedLedgerRun } from './ledger-run.js';

/**
 * Every metatile transition, as every Ledger must make it: state × event → what the call answers,
 * the state it leaves and the counter it moves. Written out by hand — the specification, not the
 * table in lib/ledger/metatiles/transitions.ts read back — and run against DynamoDB Local
 * (integration) and the in-memory ledger (unit). A cell reads "<answer> <state> [<counter>±]".
 *
 * The bugs it catches: a guard that lets a live claim be taken or a marker be overwritten, an owner
 * transition that a stranger or a lost lease can make, a counter moved twice or not at all, a
 * re-drive that takes a live claim, and the in-memory ledger drifting from DynamoDB's semantics.
 */
const EVENTS = ['claim', 'extend', 'done', 'fail', 'release', 'park', 'unpark', 'reap'] as const;
type Event = (typeof EVENTS)[number];

// biome-ignore format: the table is read as a table
const TABLE: Record<string, Record<Event, string>> = {
  'never touched':      { claim: 'claimed CLAIMED', extend: '', done: '', fail: '', release: '', park: '- CANCELLED cancelled+', unpark: '- absent', reap: '- absent' },
  'queued':             { claim: 'claimed CLAIMED', extend: '', done: '', fail: '', release: '', park: '- CANCELLED cancelled+', unpark: '- QUEUED', reap: '- QUEUED' },
  'claimed by me':      { claim: 'held CLAIMED', extend: 'ok CLAIMED', done: 'ok DONE done+', fail: 'ok FAILED failed+', release: '- QUEUED retried+', park: '- CLAIMED', unpark: '- CLAIMED', reap: '- CLAIMED' },
  'claimed by another': { claim: 'held CLAIMED', extend: '', done: '', fail: '', release: '', park: '- CLAIMED', unpark: '- CLAIMED', reap: '- CLAIMED' },
  // The owner's transitions need the claim to be ours, not its lease to be live: until the
  // reaper or another worker takes it, a slow owner may still mark its work.
  'my expired claim':   { claim: 'claimed CLAIMED', extend: 'ok CLAIMED', done: 'ok DONE done+', fail: 'ok FAILED failed+', release: '- QUEUED retried+', park: '- CANCELLED cancelled+', unpark: 'moved QUEUED', reap: 'reaped QUEUED' },
  "another's expired":  { claim: 'claimed CLAIMED', extend: '', done: '', fail: '', release: '', park: '- CANCELLED cancelled+', unpark: 'moved QUEUED', reap: 'reaped QUEUED' },
  // A claim that is no longer ours: taken over, reaped or parked after its lease ran out.
  'taken over from me': { claim: 'held CLAIMED', extend: 'lost CLAIMED', done: 'lost CLAIMED', fail: 'lost CLAIMED', release: '- CLAIMED', park: '- CLAIMED', unpark: '- CLAIMED', reap: '- CLAIMED' },
  'reaped from me':     { claim: 'claimed CLAIMED', extend: 'lost QUEUED', done: 'lost QUEUED', fail: 'lost QUEUED', release: '- QUEUED', park: '- CANCELLED cancelled+', unpark: '- QUEUED', reap: '- QUEUED' },
  'parked from me':     { claim: 'parked PARKED', extend: 'lost PARKED', done: 'lost PARKED', fail: 'lost PARKED', release: '- PARKED', park: '- PARKED', unpark: 'moved QUEUED parked-', reap: '- PARKED' },
  // Marked by me already: a marker retried after its response was lost is ours, not a lost lease.
  'done by me':         { claim: 'done DONE', extend: 'lost DONE', done: 'ok DONE', fail: 'lost DONE', release: '- DONE', park: '- DONE', unpark: '- DONE', reap: '- DONE' },
  'done':               { claim: 'done DONE', extend: '', done: '', fail: '', release: '', park: '- DONE', unpark: '- DONE', reap: '- DONE' },
  'failed':             { claim: 'failed FAILED', extend: '', done: '', fail: '', release: '', park: '- FAILED', unpark: 'moved QUEUED failed-', reap: '- FAILED' },
  'parked':             { claim: 'parked PARKED', extend: '', done: '', fail: '', release: '', park: '- PARKED', unpark: 'moved QUEUED parked-', reap: '- PARKED' },
  'cancelled':          { claim: 'cancelled CANCELLED', extend: '', done: '', fail: '', release: '', park: '- CANCELLED', unpark: 'moved QUEUED cancelled-', reap: '- CANCELLED' },
};

const LEASE = 60_000;
const SHORT = 1_000;
const error = { class: 'TileDataError', message: 'bad' };

/**
 * Puts the run's metatile in the row's state, as workers and an operator would; returns my
 * claim's handle when I made one (an empty cell in the table: an owner's call I cannot make).
 */
async function arrange(l: Ledger, runId: string, m: Metatile, from: string, clock: { t: number }) {
  const pastShortLeases = () => {
    clock.t += 2 * SHORT;
  };
  let mine: ClaimHandle | undefined;
  if (from === 'queued') await (await claimAs(l, runId, m, 'w')).release({ state: 'QUEUED' });
  else if (from === 'claimed by me') mine = await claimAs(l, runId, m, 'me', LEASE);
  else if (from === 'claimed by another') await claimAs(l, runId, m, 'other', LEASE);
  else if (from === 'my expired claim') mine = await claimAs(l, runId, m, 'me', SHORT);
  else if (from === "another's expired") await claimAs(l, runId, m, 'other', SHORT);
  else if (from === 'taken over from me') {
    mine = await claimAs(l, runId, m, 'me', SHORT);
    pastShortLeases();
    await claimAs(l, runId, m, 'other', LEASE);
  } else if (from === 'reaped from me') {
    mine = await claimAs(l, runId, m, 'me', SHORT);
    pastShortLeases();
    await l.reapExpiredLeases(clock.t);
  } else if (from === 'parked from me') {
    mine = await claimAs(l, runId, m, 'me', SHORT);
    pastShortLeases();
    await l.park(runId, [m], 'PARKED', error);
  } else if (from === 'done by me') {
    mine = await claimAs(l, runId, m, 'me', LEASE);
    await mine.markDone(outputsOf(runId, m), 7);
  } else if (from === 'done') await (await claimAs(l, runId, m, 'w')).markDone(outputsOf(runId, m), 1);
  else if (from === 'failed') await (await claimAs(l, runId, m, 'w')).markFailed(error);
  else if (from === 'parked') await l.park(runId, [m], 'PARKED', error);
  else if (from === 'cancelled') await l.park(runId, [m], 'CANCELLED', error);
  // Past the short leases, well inside the long ones.
  pastShortLeases();
  return mine;
}

/** Makes the event as the worker "me" (through my claim's handle) or the operator; its answer. */
async function act(
  l: Ledger,
  runId: string,
  m: Metatile,
  event: Event,
  mine: ClaimHandle | undefined,
  now: number,
): Promise<string> {
  const owned = async (op: (claim: ClaimHandle) => Promise<unknown>) => {
    try {
      await op(mine!);
      return 'ok';
    } catch (e) {
      if (e instanceof LeaseLostError) return 'lost';
      throw e;
    }
  };
  switch (event) {
    case 'claim':
      return (await l.claim(runId, m, 'me', LEASE)).outcome;
    case 'extend':
      return owned((c) => c.extend());
    case 'done':
      return owned((c) => c.markDone(outputsOf(runId, m), 7));
    case 'fail':
      return owned((c) => c.markFailed(error));
    case 'release':
      await mine!.release({ state: 'QUEUED', error });
      return '-';
    case 'park':
      await l.park(runId, [m], 'CANCELLED', error);
      return '-';
    case 'unpark':
      return (await l.unpark(runId)).some((x) => x.id === m.id) ? 'moved' : '-';
    case 'reap': {
      const before = await l.getMetatile(runId, m.id);
      await l.reapExpiredLeases(now);
      const after = await l.getMetatile(runId, m.id);
      return before?.state === 'CLAIMED' && after?.state !== 'CLAIMED' ? 'reaped' : '-';
    }
  }
}

const BASE_COUNTERS: Record<string, Partial<Record<CounterField, number>>> = {
  done: { done: 1 },
  'done by me': { done: 1 },
  'parked from me': { parked: 1 },
  failed: { failed: 1 },
  parked: { parked: 1 },
  cancelled: { cancelled: 1 },
};

/**
 * `ledger(now)`: a ledger on that clock. The clock starts in 2001 and goes backwards from cell to
 * cell, so the reaper of one cell (which reads every run on the table) never meets the expired
 * leases of the cells before it, nor any other test's real-time lease.
 */
export function ledgerTransitionsContract(ledger: (now: () => number) => Ledger) {
  let base = Date.UTC(2001, 0, 1);
  describe.each(Object.entries(TABLE))('a metatile %s', (from, row) => {
    // An empty cell is a call that cannot be made: an owner's transition without a claim of mine.
    it.each(EVENTS.filter((e) => row[e] !== ''))('× %s', async (event) => {
      base -= 10 * LEASE;
      const clock = { t: base };
      const l = ledger(() => clock.t);
      const { runId, metatiles } = await seedLedgerRun(l, 1, 2);
      const m = metatiles[0]!;
      const mine = await arrange(l, runId, m, from, clock);
      const [answer, state, moved] = row[event].split(' ');
      expect(await act(l, runId, m, event, mine, clock.t)).toBe(answer);

      const record = await l.getMetatile(runId, m.id);
      expect(record?.state ?? 'absent').toBe(state);
      // A claim's fields live exactly as long as the claim (the leases index holds only claims).
      if (record && record.state !== 'CLAIMED')
        expect([record.owner, record.leaseUntil]).toEqual([undefined, undefined]);
      if (answer === 'claimed') expect(record).toMatchObject({ owner: 'me', leaseUntil: clock.t + LEASE });
      if (event === 'extend' && answer === 'ok') expect(record?.leaseUntil).toBe(clock.t + mine!.leaseMs);
      if (event === 'done' && answer === 'ok') expect(record).toMatchObject({ doneBy: 'me', durationMs: 7 });
      if (answer === 'moved') expect(record?.attempts).toBe(0);

      const expected: Record<string, number> = zeroCounters();
      for (const [k, n] of Object.entries(BASE_COUNTERS[from] ?? {})) expected[k] = n * m.tiles.length;
      if (moved) expected[moved.slice(0, -1)]! += (moved.endsWith('+') ? 1 : -1) * m.tiles.length;
      expect((await l.getRun(runId))!.counters).toMatchObject(expected);
    });
  });

  it('a re-claim after a lease expired counts the attempt; an interrupted release counts the interruption', async () => {
    const clock = { t: base - 100 * LEASE };
    const l = ledger(() => clock.t);
    const { runId, metatiles } = await seedLedgerRun(l, 1, 3);
    const m = metatiles[0]!;
    await claimAs(l, runId, m, 'first', SHORT);
    clock.t += 2 * SHORT;
    const second = await l.claim(runId, m, 'second', LEASE);
    expect(second).toMatchObject({ outcome: 'claimed', attempts: 2 });
    if (second.outcome === 'claimed') await second.claim.release({ state: 'QUEUED', interrupted: true });
    expect(await l.getMetatile(runId, m.id)).toMatchObject({
      state: 'QUEUED',
      interruptions: 1,
      attempts: 2,
    });
    expect((await l.getRun(runId))!.counters).toMatchObject({ interrupted: 3, retried: 0 });
    await (await claimAs(l, runId, m, 'third', LEASE)).release({ state: 'PARKED', error });
    expect(await l.getMetatile(runId, m.id)).toMatchObject({
      state: 'PARKED',
      lastError: error,
      attempts: 3,
    });
    expect((await l.getRun(runId))!.counters).toMatchObject({ parked: 3 });
  });
}
