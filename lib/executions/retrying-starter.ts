import { type RetryPolicy, retryWithBackoff } from '../aws/backoff.js';
import type { RequestOptions } from '../store/object-store.js';
import { ExecutionStartThrottledError } from './errors.js';
import type { ExecutionStarter } from './execution-starter.js';

/**
 * What StartExecution answers when it cannot start one now (Step Functions API reference):
 * ThrottlingException (over the StartExecution rate; the SDK retries it a few times itself) and
 * ExecutionLimitExceeded (too many running executions; the SDK does not retry it). Neither
 * started anything, and a start is idempotent by name, so trying again is safe.
 */
const REFUSALS = new Set(['ThrottlingException', 'ExecutionLimitExceeded']);

/**
 * Eight attempts, full jitter, at most 5 s apart: 16 s at the very worst, inside the on-upload
 * Lambda's 30 s, so a run is started late rather than lost (an upload event whose Lambda failed
 * is tried again by Lambda only twice, then dropped).
 */
export const DEFAULT_START_RETRY: RetryPolicy = { attempts: 8, baseDelayMs: 200, maxDelayMs: 5_000 };

/** A starter that tries a refused StartExecution again, with back-off; other errors pass at once. */
export function retryingStarter(
  starter: ExecutionStarter,
  policy: RetryPolicy = DEFAULT_START_RETRY,
): ExecutionStarter {
  return {
    arnFor: (name) => starter.arnFor(name),
    ...(starter.statusOf
      ? { statusOf: (arn: string, options?: RequestOptions) => starter.statusOf!(arn, options) }
      : {}),
    // A cancelled start (an AbortError) is not a refusal: it passes at once, never retried.
    start: (name, input, options) =>
      retryWithBackoff(
        () => starter.start(name, input, options),
        policy,
        (error) => REFUSALS.has((error as Error).name),
        (error, attempts) =>
          new ExecutionStartThrottledError(`StartExecution of ${name} refused ${attempts} times`, {
            cause: error,
          }),
      ),
  };
}
