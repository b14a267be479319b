import { LedgerBusyError } from '../errors.js';
import { classifyDynamoError } from './classify-error.js';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
}

/**
 * On top of the SDK's own retries: DynamoDB does not retry a transaction cancelled by a
 * conflict, and under a hot partition its few quick attempts run out. Eight attempts with full
 * jitter spread racing workers apart over about five seconds at most; a marker, which follows the
 * work, gets twelve (context.ts).
 */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 8, baseDelayMs: 25, maxDelayMs: 1_500 };

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `op` again after transient failures (transaction conflict, throttling, 5xx) with full
 * jitter back-off, bounded; other failures, condition failures included, pass through at once.
 * Exhausted retries end in a LedgerBusyError: the ledger is busy, not the sub-tile broken.
 */
export async function withRetry<T>(op: () => Promise<T>, policy: RetryPolicy = DEFAULT_RETRY): Promise<T> {
  const sleep = policy.sleep ?? defaultSleep;
  const random = policy.random ?? Math.random;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await op();
    } catch (error) {
      if (classifyDynamoError(error) !== 'transient') throw error;
      if (attempt >= policy.attempts) {
        throw new LedgerBusyError(`the ledger stayed busy after ${attempt} attempts: ${String(error)}`, {
          cause: error,
        });
      }
      const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
      await sleep(Math.floor(random() * ceiling));
    }
  }
}
