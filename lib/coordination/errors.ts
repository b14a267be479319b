/** The run's circuit breaker is open: its work was drained and parked for a re-drive. */
export class BreakerOpenError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BreakerOpenError';
  }
}

/** The run ended with sub-tiles failed, parked or dead-lettered: an exact account is in the cause. */
export class IncompleteRunError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'IncompleteRunError';
  }
}

/** The run was cancelled (execution stopped, operator cancel). */
export class RunCancelledError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RunCancelledError';
  }
}
