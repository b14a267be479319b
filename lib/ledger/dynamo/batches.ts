import { type Metatile, metatileFields, metatileOfRecord } from '../../model/metatile.js';
import { isExpiredClaim, type TileError, type TileState } from '../../model/run.js';
import type { CounterField } from '../items.js';
import type { Ledger } from '../ledger.js';
import { isConditionFailure } from './classify-error.js';
import { expiredClaim, inState, itemAbsent } from './conditions.js';
import type { LedgerContext } from './context.js';
import { assign, or, type Part } from './expression.js';
import { LEASE_FIELDS } from './markers.js';
import { transition } from './transition.js';

type BatchOps = Pick<Ledger, 'park' | 'unpark'>;

const keepAttempts: Part = {
  text: '#attempts = if_not_exists(#attempts, :zero)',
  names: { '#attempts': 'attempts' },
  values: { ':zero': 0 },
};

const COUNTER_OF: Partial<Record<TileState, CounterField>> = {
  PARKED: 'parked',
  CANCELLED: 'cancelled',
  FAILED: 'failed',
};

/**
 * Stops a metatile that nobody is working on (a stopped run): never touched, queued, or claimed
 * by a worker whose lease expired (it died holding it). Counted once; false if it was not free.
 */
export async function stopMetatile(
  ctx: LedgerContext,
  runId: string,
  metatile: Metatile,
  state: 'PARKED' | 'CANCELLED',
  error: TileError,
  now = ctx.now(),
): Promise<boolean> {
  try {
    await transition(
      ctx,
      runId,
      metatile.id,
      {
        set: [
          assign({
            state,
            lastError: error,
            runId,
            metatileId: metatile.id,
            ...metatileFields(metatile),
            updatedAt: new Date(now).toISOString(),
          }),
          keepAttempts,
        ],
        remove: [LEASE_FIELDS],
        condition: or(itemAbsent, inState('QUEUED'), expiredClaim(now)),
      },
      { [state === 'PARKED' ? 'parked' : 'cancelled']: metatile.tiles.length },
    );
    return true;
  } catch (e) {
    // Done, failed, parked, or held by a live worker (who stops it itself): accounted for where it is.
    if (!isConditionFailure(e)) throw e;
    return false;
  }
}

/** Parking and re-driving batches of metatiles. */
export function batchOperations(ctx: LedgerContext, ledger: Pick<Ledger, 'listMetatiles'>): BatchOps {
  return {
    async park(runId, metatiles, state, error) {
      for (const metatile of metatiles) await stopMetatile(ctx, runId, metatile, state, error);
    },

    async unpark(runId, only) {
      const moved: Metatile[] = [];
      // Stopped metatiles (and claims, unless filtered) only: a million-tile run's markers stay put.
      const states = Object.keys(COUNTER_OF) as TileState[];
      const listed = ledger.listMetatiles(runId, {
        parallel: true,
        states: only ? states : [...states, 'CLAIMED'],
      });
      for await (const record of listed) {
        const counter = COUNTER_OF[record.state];
        const stranded = !only && isExpiredClaim(record, ctx.now());
        if ((!counter && !stranded) || (counter && only && !only(record))) continue;
        try {
          await transition(
            ctx,
            runId,
            record.metatileId,
            {
              // A fresh budget: the attempts of the stopped work do not count against the re-drive.
              set: [assign({ state: 'QUEUED', attempts: 0, updatedAt: new Date(ctx.now()).toISOString() })],
              remove: [LEASE_FIELDS],
              condition: counter ? inState(record.state) : expiredClaim(ctx.now()),
            },
            counter ? { [counter]: -record.tiles.length } : {},
          );
          moved.push(metatileOfRecord(record));
        } catch (error) {
          if (!isConditionFailure(error)) throw error;
        }
      }
      return moved;
    },
  };
}
