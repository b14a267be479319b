/** The lease on a sub-tile is no longer ours (expired and reclaimed, or released by the reaper). */
export class LeaseLostError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LeaseLostError';
  }
}

/** A run the caller expected is not in the ledger. */
export class RunNotFoundError extends Error {
  constructor(runId: string, options?: { cause?: unknown }) {
    super(`run ${runId} is not in the ledger`, options);
    this.name = 'RunNotFoundError';
  }
}
