import type { Metatile } from '../../model/metatile.js';
import { LeaseLostError } from '../errors.js';
import type { ClaimHandle, LedgerRequest } from '../ledger.js';
import type { MetatileStore } from './store.js';
import { type MetatileEvent, transitionOf } from './transitions.js';

/** The event's row of the table, applied on the store: the row, and whether it applied. */
export function applyEvent(
  store: MetatileStore,
  runId: string,
  metatileId: string,
  event: MetatileEvent,
  request?: LedgerRequest,
) {
  const transition = transitionOf(event, runId, store.now());
  return { transition, applied: store.apply(runId, metatileId, transition, request) };
}

/**
 * What only a claim's owner may do with the metatile: mark it done or failed, give it back,
 * extend the lease. A marker's guard failing is a lost lease — unless the marker is already
 * ours (a retry after an ambiguous failure found its own earlier write applied).
 */
export function claimHandle(
  store: MetatileStore,
  runId: string,
  metatile: Metatile,
  owner: string,
  leaseMs: number,
): ClaimHandle {
  const mark = async (event: MetatileEvent, request?: LedgerRequest) => {
    const { transition, applied } = applyEvent(store, runId, metatile.id, event, request);
    if (await applied) return;
    const current = await store.getMetatile(runId, metatile.id, request);
    if (current && current.state === transition.set.state && current.doneBy === owner) return;
    const what = String(transition.set.state).toLowerCase();
    throw new LeaseLostError(`cannot mark ${runId}/${metatile.id} ${what}: the lease is no longer ours`);
  };

  return {
    runId,
    metatile,
    owner,
    leaseMs,
    async extend(request) {
      if (await applyEvent(store, runId, metatile.id, { kind: 'extend', owner, leaseMs }, request).applied)
        return;
      throw new LeaseLostError(`lease on ${runId}/${metatile.id} is no longer held by ${owner}`);
    },
    async markDone(outputs, durationMs, request) {
      const missing = metatile.tiles.filter((t) => !outputs.has(t.id));
      if (missing.length > 0)
        throw new RangeError(`marker for ${runId}/${metatile.id} lacks outputs of ${missing.length} tiles`);
      const byTile = Object.fromEntries(metatile.tiles.map((t) => [t.id, outputs.get(t.id)!]));
      await mark({ kind: 'done', metatile, owner, outputs: byTile, durationMs }, request);
    },
    async markFailed(error) {
      await mark({ kind: 'fail', metatile, owner, error });
    },
    async release(release) {
      // Not applied: the lease was already given back (the reaper) or taken over; nothing to do.
      await applyEvent(store, runId, metatile.id, { kind: 'release', metatile, owner, release }).applied;
    },
  };
}
