import { LeaseLostError, LedgerBusyError } from '../lib/ledger/errors.js';
import type { Release } from '../lib/ledger/ledger.js';
import type { TileError } from '../lib/model/run.js';
import { ProcessGroupSurvivedError } from '../lib/process/errors.js';
import { DeadlineExceededError, InterruptedError, RunStoppedError, TileDataError } from './errors.js';

/**
 * What becomes of the message: `delete` (accounted for), `requeue` (a fresh copy: an
 * interruption must not spend its receive budget), `retry` (visible again after a delay, one
 * receive spent), `leave` (untouched: it comes back when its visibility lapses).
 */
export type Disposition = 'delete' | 'requeue' | 'retry' | 'leave';

/** The worker's answer to a failed metatile attempt. */
export interface FailurePolicy {
  /** Record a terminal data failure (the marker of a FAILED metatile) instead of a release. */
  readonly markFailed: boolean;
  /** How the claim is given back; undefined: not at all (not ours, or not safe to). */
  readonly release: Release | undefined;
  readonly disposition: Disposition;
  readonly level: 'warn' | 'error';
  readonly log: string;
  /** The worker must stop taking work and exit non-zero (the error is rethrown). */
  readonly fatal: boolean;
}

export const errorOf = (error: unknown): TileError => ({
  class: error instanceof Error ? error.name : 'UnknownError',
  message: (error instanceof Error ? error.message : String(error)).slice(0, 2_000),
});

const base = { markFailed: false, level: 'warn', fatal: false } as const;

/**
 * The pure mapping of an attempt's error to (release, disposition, log): every exit path of a
 * claimed metatile goes through this table (docs/architecture.md, "Invariants").
 */
export function failurePolicy(error: unknown): FailurePolicy {
  const tileError = errorOf(error);
  if (error instanceof TileDataError)
    return {
      ...base,
      markFailed: true,
      release: undefined,
      disposition: 'delete',
      log: 'metatile failed on bad data; not retried',
    };
  if (error instanceof InterruptedError)
    return {
      ...base,
      release: { state: 'QUEUED', error: tileError, interrupted: true },
      disposition: 'requeue',
      log: 'metatile interrupted; back to the queue',
    };
  if (error instanceof RunStoppedError)
    return {
      ...base,
      release: { state: error.status === 'CANCELLED' ? 'CANCELLED' : 'PARKED', error: tileError },
      disposition: 'delete',
      log: 'metatile stopped with its run',
    };
  if (error instanceof DeadlineExceededError)
    return {
      ...base,
      release: { state: 'PARKED', error: tileError },
      disposition: 'delete',
      log: 'metatile exceeded its budget; parked for a re-drive',
    };
  if (error instanceof LeaseLostError)
    return {
      ...base,
      release: undefined,
      disposition: 'retry',
      log: 'lease lost; metatile left to its new owner',
    };
  if (error instanceof ProcessGroupSurvivedError)
    // The group may still write: no release and no cleanup that assumes it is dead; the lease
    // expires, the message comes back, and the worker stops so its task is replaced.
    return {
      ...base,
      release: undefined,
      disposition: 'leave',
      level: 'error',
      log: 'a tool process group survived SIGKILL; stopping the worker',
      fatal: true,
    };
  if (error instanceof LedgerBusyError)
    // The ledger was busy, the metatile is fine: given back uncounted (the breaker never sees
    // it) and its message requeued fresh, so a busy ledger never spends the receive budget.
    return {
      ...base,
      release: { state: 'QUEUED' },
      disposition: 'requeue',
      log: 'ledger busy; metatile back to the queue',
    };
  return {
    ...base,
    release: { state: 'QUEUED', error: tileError },
    disposition: 'retry',
    log: 'metatile failed; will be retried',
  };
}
