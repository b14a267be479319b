import type { RunStatus, TileState } from '../../model/run.js';
import type { Guard } from '../metatiles/guard.js';
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

/** A metatile transition's guard (metatiles/guard.ts) as a condition: any of its clauses. */
export function guardCondition(guard: Guard): Part {
  const parts: Part[] = [
    ...(guard.absent ? [itemAbsent] : []),
    ...(guard.states ?? []).map(inState),
    ...(guard.expiredBefore === undefined ? [] : [expiredClaim(guard.expiredBefore)]),
    ...(guard.ownClaim === undefined ? [] : [ownClaim(guard.ownClaim)]),
  ];
  if (parts.length === 0) throw new RangeError('a transition guard needs at least one clause');
  return or(...parts);
}

export const runStatusIn = (statuses: readonly RunStatus[]): Part => ({
  text: `#status IN (${statuses.map((_, i) => `:from${i}`).join(', ')})`,
  names: { '#status': 'status' },
  values: Object.fromEntries(statuses.map((s, i) => [`:from${i}`, s])),
});
