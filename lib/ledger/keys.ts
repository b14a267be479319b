import { createHash } from 'node:crypto';

/** Single-table keys of the ledger (docs/architecture.md, "Ledger"). */
export const runKey = (runId: string) => ({ PK: `RUN#${runId}`, SK: 'META' });
export const metatileKey = (runId: string, metatileId: string) => ({
  PK: `RUN#${runId}`,
  SK: `${METATILE_PREFIX}${metatileId}`,
});
export const METATILE_PREFIX = 'UNIT#';
/** The partition of the sparse `runs` index: every run record carries it, no metatile does. */
export const RUN_LIST_KEY = 'RUN';

/**
 * Counter shards per run: a marker updates one shard, never a single run item every worker
 * writes (concurrent transactions on one item fail with TransactionConflict on DynamoDB).
 */
export const COUNTER_SHARDS = 16;
export const COUNTER_PREFIX = 'COUNT#';
/** Lease shards of the sparse `leases` index: claims spread over partitions, the reaper reads all. */
export const LEASE_SHARDS = 8;

function bucketOf(id: string, buckets: number): number {
  return createHash('sha256').update(id).digest().readUInt32BE(0) % buckets;
}

/** The counter shard a metatile's transitions count in: fixed by its id, so every count is on one item. */
export const counterKey = (runId: string, metatileId: string) => ({
  PK: `RUN#${runId}`,
  SK: `${COUNTER_PREFIX}${String(bucketOf(metatileId, COUNTER_SHARDS)).padStart(2, '0')}`,
});

export const leaseShardOf = (metatileId: string) => `LEASE#${bucketOf(metatileId, LEASE_SHARDS)}`;
export const LEASE_SHARD_KEYS = Array.from({ length: LEASE_SHARDS }, (_, i) => `LEASE#${i}`);
