import { type Metatile, metatileFields } from '../../model/metatile.js';
import type { TileError, TileOutput, TileState } from '../../model/run.js';
import type { CounterField } from '../items.js';
import { leaseShardOf } from '../keys.js';
import type { Release } from '../ledger.js';
import type { Guard } from './guard.js';

/** The run's counters a transition changes, in sub-tiles. */
export type Counts = Partial<Record<CounterField, number>>;

/** What can happen to a metatile (docs/architecture.md, "A metatile's states"). */
export type MetatileEvent =
  | { readonly kind: 'claim'; readonly metatile: Metatile; readonly owner: string; readonly leaseMs: number }
  | { readonly kind: 'extend'; readonly owner: string; readonly leaseMs: number }
  | {
      readonly kind: 'done';
      readonly metatile: Metatile;
      readonly owner: string;
      readonly outputs: Readonly<Record<string, TileOutput>>;
      readonly durationMs: number;
    }
  | { readonly kind: 'fail'; readonly metatile: Metatile; readonly owner: string; readonly error: TileError }
  | {
      readonly kind: 'release';
      readonly metatile: Metatile;
      readonly owner: string;
      readonly release: Release;
    }
  /** Nobody is working on it and its run stopped: kept for a re-drive. */
  | {
      readonly kind: 'stop';
      readonly metatile: Metatile;
      readonly state: 'PARKED' | 'CANCELLED';
      readonly error: TileError;
    }
  /** An operator's re-drive of a stopped metatile, or of a claim whose holder died. */
  | { readonly kind: 'redrive'; readonly from: StoppedState | 'CLAIMED'; readonly tiles: number }
  /** The reaper, in a running run: a claim whose holder died goes back to the queue. */
  | { readonly kind: 'reap' };

/** One row of the table: applied all or nothing, and only when its guard holds. */
export interface Transition {
  readonly guard: Guard;
  /** Fields written; undefined ones are left as they are. */
  readonly set: Readonly<Record<string, unknown>>;
  /** Numbers added to (an absent one counts from 0). */
  readonly add: Readonly<Record<string, number>>;
  /** The claim's fields go (which also drops the item from the sparse `leases` index). */
  readonly dropLease: boolean;
  readonly counts: Counts;
  /** It records finished work (a marker, a failure): worth retrying longer (dynamo/context.ts). */
  readonly afterWork: boolean;
}

/** A claim's fields: only a CLAIMED metatile has them. */
export const LEASE_FIELDS = ['owner', 'leaseUntil', 'leaseShard'] as const;

/** The stopped states and the counter each is counted in: a re-drive takes them back. */
export const STOPPED_COUNTERS = {
  PARKED: 'parked',
  CANCELLED: 'cancelled',
  FAILED: 'failed',
} as const satisfies Partial<Record<TileState, CounterField>>;
export type StoppedState = keyof typeof STOPPED_COUNTERS;

const row = (t: Partial<Transition> & Pick<Transition, 'guard' | 'set'>): Transition => ({
  add: {},
  dropLease: true,
  counts: {},
  afterWork: false,
  ...t,
});

/** Free: never touched, queued, or a claim whose holder's lease ran out. */
const free = (now: number): Guard => ({ absent: true, states: ['QUEUED'], expiredBefore: now });

function releaseCounts(release: Release, tiles: number): Counts {
  if (release.state !== 'QUEUED') return { [STOPPED_COUNTERS[release.state]]: tiles };
  if (release.interrupted === true) return { interrupted: tiles };
  return release.error ? { retried: tiles } : {};
}

/**
 * The metatile state machine, the one copy of it: state × event → guard, writes and counter
 * deltas. The DynamoDB adapter and the in-memory ledger both only execute it.
 */
export function transitionOf(event: MetatileEvent, runId: string, now: number): Transition {
  const updatedAt = new Date(now).toISOString();
  switch (event.kind) {
    case 'claim': {
      const { metatile: m, owner } = event;
      const lease = { owner, leaseUntil: now + event.leaseMs, leaseShard: leaseShardOf(m.id) };
      const record = { runId, metatileId: m.id, ...metatileFields(m) };
      return row({
        guard: free(now),
        set: { state: 'CLAIMED', ...lease, ...record, updatedAt },
        add: { attempts: 1 },
        dropLease: false,
      });
    }
    case 'extend':
      return row({
        guard: { ownClaim: event.owner },
        set: { leaseUntil: now + event.leaseMs },
        dropLease: false,
      });
    case 'done':
      return row({
        guard: { ownClaim: event.owner },
        set: {
          state: 'DONE',
          outputs: event.outputs,
          durationMs: event.durationMs,
          doneBy: event.owner,
          updatedAt,
        },
        counts: { done: event.metatile.tiles.length },
        afterWork: true,
      });
    case 'fail':
      return row({
        guard: { ownClaim: event.owner },
        set: { state: 'FAILED', error: event.error, doneBy: event.owner, updatedAt },
        counts: { failed: event.metatile.tiles.length },
        afterWork: true,
      });
    case 'release': {
      const { release } = event;
      return row({
        guard: { ownClaim: event.owner },
        set: { state: release.state, lastError: release.error, updatedAt },
        add: release.state === 'QUEUED' && release.interrupted === true ? { interruptions: 1 } : {},
        counts: releaseCounts(release, event.metatile.tiles.length),
      });
    }
    case 'stop': {
      const { metatile: m } = event;
      return row({
        guard: free(now),
        set: {
          state: event.state,
          lastError: event.error,
          runId,
          metatileId: m.id,
          ...metatileFields(m),
          updatedAt,
        },
        // A metatile stopped before any claim still has its (zero) attempts.
        add: { attempts: 0 },
        counts: { [STOPPED_COUNTERS[event.state]]: m.tiles.length },
      });
    }
    case 'redrive': {
      const { from } = event;
      return row({
        guard: from === 'CLAIMED' ? { expiredBefore: now } : { states: [from] },
        // A fresh budget: the attempts of the stopped work do not count against the re-drive.
        set: { state: 'QUEUED', attempts: 0, updatedAt },
        counts: from === 'CLAIMED' ? {} : { [STOPPED_COUNTERS[from]]: -event.tiles },
      });
    }
    case 'reap':
      return row({ guard: { expiredBefore: now }, set: { state: 'QUEUED', updatedAt } });
  }
}
