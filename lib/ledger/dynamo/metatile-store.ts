import { LEASE_SHARD_KEYS, METATILE_PREFIX } from '../keys.js';
import type { MetatileStore } from '../metatiles/store.js';
import type { LedgerContext } from './context.js';
import { metatileReads } from './metatile-reads.js';
import { queryItems } from './query-items.js';
import { readRunStatus } from './runs.js';
import { applyTransition } from './transition.js';

/** Metatile records on the ledger's table: transitions as conditional writes, reads as queries. */
export function dynamoMetatileStore(ctx: LedgerContext): MetatileStore & ReturnType<typeof metatileReads> {
  return {
    ...metatileReads(ctx),
    now: ctx.now,
    apply: (runId, metatileId, transition, request) =>
      applyTransition(ctx, runId, metatileId, transition, request),
    runStatus: (runId) => readRunStatus(ctx, runId),
    // From the sparse `leases` index: only claims carry `leaseShard`, whatever their run's state.
    async *expiredLeases(now) {
      for (const shard of LEASE_SHARD_KEYS) {
        const keys = queryItems(ctx, {
          IndexName: 'leases',
          KeyConditionExpression: 'leaseShard = :shard AND leaseUntil < :now',
          ExpressionAttributeValues: { ':shard': shard, ':now': now },
        });
        for await (const key of keys)
          yield {
            runId: String(key.PK).slice('RUN#'.length),
            metatileId: String(key.SK).slice(METATILE_PREFIX.length),
          };
      }
    },
  };
}
