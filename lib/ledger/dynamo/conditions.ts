import type { RunStatus, TileState } from '../../model/run.js';
import { and, or, type Part } from './expression.js';

/** Named condition parts of the ledger's writes (docs/architecture.md, "Ledger"). */

export const itemExists: Part = { text: 'attribute_exists(PK)' };
export const itemAbsent: Part = { text: 'attribute_not_exists(PK)' };

export const inState = (state: TileState): Part => ({
  text: `#state = :is_${state}`,
  names: { '#state': 'state' },
  values: { [`:is_${state}`]: state },
});

export const inAnyState = (states: readonly TileState[]): Part => or(...states.map(inState));

export const heldBy = (owner: string): Part => ({
  text: '#owner = :owner',
  names: { '#owner': 'owner' },
  values: { ':owner': owner },
});

export const leaseExpiredBy = (now: number): Part => ({
  text: '#leaseUntil < :now',
  names: { '#leaseUntil': 'leaseUntil' },
  values: { ':now': now },
});

/** A claim whose holder is gone: its lease ran out. */
export const expiredClaim = (now: number): Part => and(inState('CLAIMED'), leaseExpiredBy(now));

/** Ours, and still claimed: the condition of every owner's transition. */
export const ownClaim = (owner: string): Part => and(heldBy(owner), inState('CLAIMED'));

/** Free to take: never touched, queued, or a claim whose lease expired. */
export const claimable = (now: number): Part => or(itemAbsent, inState('QUEUED'), expiredClaim(now));

export const runStatusIn = (statuses: readonly RunStatus[]): Part => ({
  text: `#status IN (${statuses.map((_, i) => `:from${i}`).join(', ')})`,
  names: { '#status': 'status' },
  values: Object.fromEntries(statuses.map((s, i) => [`:from${i}`, s])),
});
