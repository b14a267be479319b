import { type RetryPolicy, retryWithBackoff } from '../../aws/backoff.js';
import { LedgerBusyError } from '../errors.js';
import { classifyDynamoError } from './classify-error.js';

export type { RetryPolicy };

/**
 * On top of the SDK's own retries: DynamoDB does not retry a transaction cancelled by a
 * conflict, and under a hot partition its few quick attempts run out. Eight attempts with full
 * jitter spread racing workers apart over about five seconds at most; a marker, which follows the
 * work, gets twelve (context.ts).
 */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 8, baseDelayMs: 25, maxDelayMs: 1_500 };

/**
 * Runs `op` again after transient failures (transaction conflict, throttling, 5xx) with full
 * jitter back-off, bounded; other failures, condition failures included, pass through at once.
 * Exhausted retries end in a LedgerBusyError: the ledger is busy, not the sub-tile broken.
 */
export function withRetry<T>(op: () => Promise<T>, policy: RetryPolicy = DEFAULT_RETRY): Promise<T> {
  return retryWithBackoff(
    op,
    policy,
    (error) => classifyDynamoError(error) === 'transient',
    (error, attempts) =>
      new LedgerBusyError(`the ledger stayed busy after ${attempts} attempts: ${String(error)}`, {
        cause: error,
      }),
  );
}
