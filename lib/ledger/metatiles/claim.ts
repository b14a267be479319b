import type { MetatileRecord } from '../../model/run.js';
import type { ClaimResult, Ledger } from '../ledger.js';
import { applyEvent, claimHandle } from './claim-handle.js';
import type { MetatileStore } from './store.js';

const OUTCOME_OF: Partial<Record<MetatileRecord['state'], 'done' | 'failed' | 'parked' | 'cancelled'>> = {
  DONE: 'done',
  FAILED: 'failed',
  PARKED: 'parked',
  CANCELLED: 'cancelled',
};

/** A claim: the lease and its handle, or what holds the metatile instead. */
export function claimOperation(store: MetatileStore): Pick<Ledger, 'claim'> {
  return {
    async claim(runId, metatile, owner, leaseMs, request): Promise<ClaimResult> {
      const event = { kind: 'claim', metatile, owner, leaseMs } as const;
      const { transition, applied } = applyEvent(store, runId, metatile.id, event, request);
      const claim = claimHandle(store, runId, metatile, owner, leaseMs);
      const done = await applied;
      if (done) return { outcome: 'claimed', attempts: done.attempts ?? 1, claim };
      const current = await store.getMetatile(runId, metatile.id, request);
      // The SDK retries a request whose response was lost (a timeout, a reset socket): its first
      // attempt may have landed, and the retry then fails the guard on our own claim. The owner
      // and the lease this call wrote tell it apart from anyone else's; taken for 'held', the
      // metatile would stay CLAIMED by a worker that is not working on it.
      const ours = current?.owner === owner && current.leaseUntil === transition.set.leaseUntil;
      if (current?.state === 'CLAIMED' && ours)
        return { outcome: 'claimed', attempts: current.attempts, claim };
      const final = current ? OUTCOME_OF[current.state] : undefined;
      if (final) return { outcome: final };
      return { outcome: 'held', leaseUntil: current?.leaseUntil ?? store.now() };
    },
  };
}
