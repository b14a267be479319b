import { metatileOfRecord } from '../../model/metatile.js';
import { isExpiredClaim, STOPPED_RUN_STATUSES } from '../../model/run.js';
import { LEASE_SHARD_KEYS, METATILE_PREFIX } from '../keys.js';
import type { Ledger } from '../ledger.js';
import { stopMetatile } from './batches.js';
import { isConditionFailure } from './classify-error.js';
import { expiredClaim } from './conditions.js';
import type { LedgerContext } from './context.js';
import { assign } from './expression.js';
import { LEASE_FIELDS } from './markers.js';
import { queryItems } from './query-items.js';
import { readRunStatus } from './runs.js';
import { transition } from './transition.js';

const REAP_ERROR = {
  class: 'LeaseExpiredError',
  message: 'the worker holding it stopped renewing its lease',
};

/**
 * The reaper: expired leases from the sparse `leases` index (only claims carry `leaseShard`), in
 * every run whatever its state. A running run's metatile goes back to QUEUED (its message comes
 * back with it); a stopped run's is parked or cancelled, so a re-drive re-sends it.
 */
export function reapOperation(
  ctx: LedgerContext,
  ledger: Pick<Ledger, 'getMetatile'>,
): Pick<Ledger, 'reapExpiredLeases'> {
  return {
    async reapExpiredLeases(now) {
      let reaped = 0;
      const statuses = new Map<string, Awaited<ReturnType<typeof readRunStatus>>>();
      for (const shard of LEASE_SHARD_KEYS) {
        const keys = queryItems(ctx, {
          IndexName: 'leases',
          KeyConditionExpression: 'leaseShard = :shard AND leaseUntil < :now',
          ExpressionAttributeValues: { ':shard': shard, ':now': now },
        });
        for await (const key of keys) {
          const runId = String(key.PK).slice('RUN#'.length);
          const metatileId = String(key.SK).slice(METATILE_PREFIX.length);
          if (!statuses.has(runId)) statuses.set(runId, await readRunStatus(ctx, runId));
          if (await reapOne(ctx, ledger, runId, metatileId, statuses.get(runId), now)) reaped += 1;
        }
      }
      return reaped;
    },
  };
}

async function reapOne(
  ctx: LedgerContext,
  ledger: Pick<Ledger, 'getMetatile'>,
  runId: string,
  metatileId: string,
  status: Awaited<ReturnType<typeof readRunStatus>>,
  now: number,
): Promise<boolean> {
  if (status && STOPPED_RUN_STATUSES.includes(status)) {
    const record = await ledger.getMetatile(runId, metatileId);
    if (!record || !isExpiredClaim(record, now)) return false;
    const state = status === 'CANCELLED' ? 'CANCELLED' : 'PARKED';
    return stopMetatile(ctx, runId, metatileOfRecord(record), state, REAP_ERROR, now);
  }
  try {
    await transition(ctx, runId, metatileId, {
      set: [assign({ state: 'QUEUED', updatedAt: new Date(ctx.now()).toISOString() })],
      remove: [LEASE_FIELDS],
      condition: expiredClaim(now),
    });
    return true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return false;
  }
}
