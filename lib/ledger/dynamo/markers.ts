import type { Metatile } from '../../model/metatile.js';
import type { TileError } from '../../model/run.js';
import { LeaseLostError } from '../errors.js';
import type { Ledger, LedgerRequest, MetatileOutputs, Release } from '../ledger.js';
import { isConditionFailure } from './classify-error.js';
import { ownClaim } from './conditions.js';
import type { LedgerContext } from './context.js';
import { assign, increment, type Part, removal } from './expression.js';
import { type Counts, transition } from './transition.js';

type MarkerOps = Pick<Ledger, 'release' | 'markDone' | 'markFailed'>;

/** A claim's lease fields: gone with the claim, which also drops the item from the `leases` index. */
export const LEASE_FIELDS: Part = removal(['owner', 'leaseUntil', 'leaseShard']);

function releaseCounts(release: Release, tiles: number): Counts {
  if (release.state !== 'QUEUED')
    return release.state === 'PARKED' ? { parked: tiles } : { cancelled: tiles };
  if (release.interrupted === true) return { interrupted: tiles };
  return release.error ? { retried: tiles } : {};
}

/** What the owner of a claim writes: the marker, a terminal failure, or the claim given back. */
export function markerOperations(ctx: LedgerContext, ledger: Pick<Ledger, 'getMetatile'>): MarkerOps {
  const iso = () => new Date(ctx.now()).toISOString();

  /** An owner's transition: only while the claim is ours; LeaseLostError otherwise. */
  const ownedTransition = async (
    runId: string,
    metatile: Metatile,
    owner: string,
    what: string,
    set: Readonly<Record<string, unknown>>,
    counts: Counts,
    request?: LedgerRequest,
  ) => {
    try {
      await transition(
        ctx,
        runId,
        metatile.id,
        { set: [assign({ ...set, updatedAt: iso() })], remove: [LEASE_FIELDS], condition: ownClaim(owner) },
        counts,
        true,
        request,
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // A retry after an ambiguous failure may find its own earlier write applied.
      const current = await ledger.getMetatile(runId, metatile.id, request);
      if (current && current.state === set.state && current.doneBy === owner) return;
      throw new LeaseLostError(`cannot mark ${runId}/${metatile.id} ${what}: the lease is no longer ours`, {
        cause: error,
      });
    }
  };

  return {
    async markDone(runId, metatile, owner, outputs: MetatileOutputs, durationMs, request) {
      const missing = metatile.tiles.filter((t) => !outputs.has(t.id));
      if (missing.length > 0)
        throw new RangeError(`marker for ${runId}/${metatile.id} lacks outputs of ${missing.length} tiles`);
      const byTile = Object.fromEntries(metatile.tiles.map((t) => [t.id, outputs.get(t.id)]));
      await ownedTransition(
        runId,
        metatile,
        owner,
        'done',
        { state: 'DONE', outputs: byTile, durationMs, doneBy: owner },
        { done: metatile.tiles.length },
        request,
      );
    },

    async markFailed(runId, metatile, owner, error: TileError) {
      await ownedTransition(
        runId,
        metatile,
        owner,
        'failed',
        { state: 'FAILED', error, doneBy: owner },
        { failed: metatile.tiles.length },
      );
    },

    async release(runId, metatile, owner, release: Release) {
      try {
        await transition(
          ctx,
          runId,
          metatile.id,
          {
            set: [assign({ state: release.state, lastError: release.error, updatedAt: iso() })],
            add:
              release.state === 'QUEUED' && release.interrupted === true
                ? [increment({ interruptions: 1 })]
                : [],
            remove: [LEASE_FIELDS],
            condition: ownClaim(owner),
          },
          releaseCounts(release, metatile.tiles.length),
        );
      } catch (error) {
        // A lease that is no longer ours was already given back (reaper) or taken over.
        if (!isConditionFailure(error)) throw error;
      }
    },
  };
}
