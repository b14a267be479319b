import { isExpiredClaim, type MetatileRecord, type TileState } from '../../model/run.js';

/**
 * When a metatile transition may apply: any one of its clauses holds. Data, not code, so the one
 * table (transitions.ts) is executed both ways: as a DynamoDB ConditionExpression by the adapter
 * (dynamo/guard-condition.ts) and by `holds` in memory.
 */
export interface Guard {
  /** Never touched: no item yet. */
  readonly absent?: true;
  /** In one of these states (CLAIMED is never listed: a claim is guarded by its lease or owner). */
  readonly states?: readonly Exclude<TileState, 'CLAIMED'>[];
  /** CLAIMED, and its lease ran out before this time (ms since the epoch). */
  readonly expiredBefore?: number;
  /** CLAIMED by this owner (its lease is the owner's to keep: the reaper, not the guard, ends it). */
  readonly ownClaim?: string;
}

/** Whether the guard admits the record (undefined: the metatile was never touched). */
export function holds(guard: Guard, record: MetatileRecord | undefined): boolean {
  if (!record) return guard.absent === true;
  if (guard.states?.includes(record.state as Exclude<TileState, 'CLAIMED'>)) return true;
  if (guard.expiredBefore !== undefined && isExpiredClaim(record, guard.expiredBefore)) return true;
  return guard.ownClaim !== undefined && record.state === 'CLAIMED' && record.owner === guard.ownClaim;
}
