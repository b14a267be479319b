import { GeohubError } from '../errors/geohub-error.js';

/** The lease on a metatile is no longer ours (expired and reclaimed, or released by the reaper). */
export class LeaseLostError extends GeohubError {
  override readonly name = 'LeaseLostError';
}

/** A run the caller expected is not in the ledger. */
export class RunNotFoundError extends GeohubError {
  override readonly name = 'RunNotFoundError';

  constructor(runId: string, options?: { cause?: unknown }) {
    super(`run ${runId} is not in the ledger`, options);
  }
}

/**
 * The ledger kept answering "busy" (transaction conflicts, throttling, 5xx) past the bounded
 * retries: nothing was written. Not a sub-tile failure — the work is given back untouched.
 */
export class LedgerBusyError extends GeohubError {
  override readonly name = 'LedgerBusyError';
}

/**
 * A claim's holder stopped renewing its lease (it died, or lost its network): the reaper or a
 * park took the metatile back. Recorded as the metatile's last error, for the run's story.
 */
export class LeaseExpiredError extends GeohubError {
  override readonly name = 'LeaseExpiredError';
}
