import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_RETRY, type RetryPolicy, withRetry } from './retry.js';

/** What every ledger operation needs: the client, the table, the clock and the retry policy. */
export interface LedgerContext {
  readonly db: DynamoDBDocumentClient;
  readonly table: string;
  readonly now: () => number;
  /** Runs one request with the bounded retry of transient failures. */
  retrying<T>(op: () => Promise<T>): Promise<T>;
  /**
   * The same, half as many attempts again: for a metatile's marker (or its failure record), which
   * comes after the work and its uploads. Given up, it costs the whole metatile's work again;
   * a claim given up costs nothing. Still well inside the claim's lease.
   */
  retryingAfterWork<T>(op: () => Promise<T>): Promise<T>;
}

export interface DynamoLedgerOptions {
  readonly now?: () => number;
  readonly retry?: RetryPolicy;
}

export function ledgerContext(
  db: DynamoDBDocumentClient,
  table: string,
  options: DynamoLedgerOptions = {},
): LedgerContext {
  const policy = options.retry ?? DEFAULT_RETRY;
  const afterWork = { ...policy, attempts: policy.attempts + Math.ceil(policy.attempts / 2) };
  return {
    db,
    table,
    now: options.now ?? Date.now,
    retrying: (op) => withRetry(op, policy),
    retryingAfterWork: (op) => withRetry(op, afterWork),
  };
}
