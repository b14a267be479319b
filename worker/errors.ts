import { GeohubError } from '../lib/errors/geohub-error.js';
import type { RunStatus } from '../lib/model/run.js';

/** The input itself is bad for this sub-tile: recorded as FAILED, never retried. */
export class TileDataError extends GeohubError {
  override readonly name = 'TileDataError';
}

/** A failure worth another attempt (network, throttling, a crashed tool): back to the queue. */
export class TileRetryableError extends GeohubError {
  override readonly name = 'TileRetryableError';
}

/** Spot reclaim (SIGTERM/SIGINT) stopped the sub-tile: not a failure, counted apart. */
export class InterruptedError extends GeohubError {
  override readonly name = 'InterruptedError';
}

/** The run was cancelled, or its circuit breaker opened: the work is parked for a re-drive. */
export class RunStoppedError extends GeohubError {
  override readonly name = 'RunStoppedError';

  constructor(
    readonly runId: string,
    readonly status: RunStatus,
    readonly reason: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(`run ${runId} is ${status}${reason ? `: ${reason}` : ''}`, options);
  }
}

/** The attempt's budget ran out: parked, not retried by the data-failure policy. */
export class DeadlineExceededError extends GeohubError {
  override readonly name = 'DeadlineExceededError';
}

/** The start-up self-check found debris: the worker refuses work (exit 78). */
export class SelfCheckError extends GeohubError {
  override readonly name = 'SelfCheckError';

  constructor(
    message: string,
    readonly problems: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
