import { type Metatile, metatileOfRecord } from '../../model/metatile.js';
import {
  isExpiredClaim,
  type RunStatus,
  STOPPED_RUN_STATUSES,
  type TileError,
  type TileState,
} from '../../model/run.js';
import { LeaseExpiredError } from '../errors.js';
import type { Ledger } from '../ledger.js';
import type { MetatileStore } from './store.js';
import { STOPPED_COUNTERS, type StoppedState, transitionOf } from './transitions.js';

type BatchOps = Pick<Ledger, 'park' | 'unpark' | 'reapExpiredLeases'>;

const REAP_ERROR: TileError = {
  class: LeaseExpiredError.name,
  message: 'the worker holding it stopped renewing its lease',
};

const STOPPED_STATES = Object.keys(STOPPED_COUNTERS) as StoppedState[];

/** Parking a stopped run's metatiles, an operator's re-drive, and the reaper. */
export function batchOperations(store: MetatileStore): BatchOps {
  /** Stops a metatile nobody is working on; false when it was not free (accounted for where it is). */
  const stop = async (
    runId: string,
    metatile: Metatile,
    state: 'PARKED' | 'CANCELLED',
    error: TileError,
    now = store.now(),
  ) =>
    (await store.apply(
      runId,
      metatile.id,
      transitionOf({ kind: 'stop', metatile, state, error }, runId, now),
    )) !== undefined;

  const reapOne = async (runId: string, metatileId: string, status: RunStatus | undefined, now: number) => {
    if (status && STOPPED_RUN_STATUSES.includes(status)) {
      // A stopped run's stranded claim is kept for its re-drive, and counted as such.
      const record = await store.getMetatile(runId, metatileId);
      if (!record || !isExpiredClaim(record, now)) return false;
      return stop(
        runId,
        metatileOfRecord(record),
        status === 'CANCELLED' ? 'CANCELLED' : 'PARKED',
        REAP_ERROR,
        now,
      );
    }
    return (await store.apply(runId, metatileId, transitionOf({ kind: 'reap' }, runId, now))) !== undefined;
  };

  return {
    async park(runId, metatiles, state, error) {
      for (const metatile of metatiles) await stop(runId, metatile, state, error);
    },

    async unpark(runId, only) {
      const moved: Metatile[] = [];
      // Stopped metatiles (and claims, unless filtered) only: a million-tile run's markers stay put.
      const states: TileState[] = only ? STOPPED_STATES : [...STOPPED_STATES, 'CLAIMED'];
      for await (const record of store.listMetatiles(runId, { parallel: true, states })) {
        const from = record.state;
        const redriven =
          from === 'CLAIMED'
            ? !only && isExpiredClaim(record, store.now())
            : from in STOPPED_COUNTERS && (!only || only(record));
        if (!redriven) continue;
        const event = {
          kind: 'redrive',
          from: from as StoppedState | 'CLAIMED',
          tiles: record.tiles.length,
        } as const;
        if (await store.apply(runId, record.metatileId, transitionOf(event, runId, store.now())))
          moved.push(metatileOfRecord(record));
      }
      return moved;
    },

    async reapExpiredLeases(now) {
      let reaped = 0;
      const statuses = new Map<string, RunStatus | undefined>();
      for await (const { runId, metatileId } of store.expiredLeases(now)) {
        if (!statuses.has(runId)) statuses.set(runId, await store.runStatus(runId));
        if (await reapOne(runId, metatileId, statuses.get(runId), now)) reaped += 1;
      }
      return reaped;
    },
  };
}
