/**
 * The one classifier of DynamoDB failures. `condition`: a ConditionExpression did not hold (also
 * inside a transaction, whatever else cancelled it) — an answer about the item. `transient`: the
 * request did not apply and may be repeated as is (a transaction conflict, throttling, a 5xx).
 */
export type DynamoFailure = 'condition' | 'transient' | 'other';

const TRANSIENT_NAMES = new Set([
  'TransactionConflictException',
  'TransactionInProgressException',
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'InternalServerError',
  'InternalFailure',
  'ServiceUnavailable',
]);

/** Cancellation reason codes that mean "try again", not "the item says no". */
const TRANSIENT_REASONS = new Set([
  'TransactionConflict',
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
  'RequestLimitExceeded',
]);

interface AwsLikeError {
  readonly name?: string;
  readonly message?: string;
  readonly $fault?: string;
  readonly $metadata?: { readonly httpStatusCode?: number };
  readonly CancellationReasons?: readonly { readonly Code?: string }[];
}

/** The reasons of a cancelled transaction; from its message when the body carried none. */
function cancellationCodes(error: AwsLikeError): string[] {
  const listed = (error.CancellationReasons ?? []).map((r) => r.Code ?? 'None');
  if (listed.length > 0) return listed;
  // "Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict, None]"
  const match = /\[([^\]]*)\]\s*$/.exec(error.message ?? '');
  return match?.[1] ? match[1].split(',').map((s) => s.trim()) : [];
}

export function classifyDynamoError(error: unknown): DynamoFailure {
  if (typeof error !== 'object' || error === null) return 'other';
  const e = error as AwsLikeError;
  if (e.name === 'ConditionalCheckFailedException') return 'condition';
  if (e.name === 'TransactionCanceledException') {
    const codes = cancellationCodes(e);
    if (codes.includes('ConditionalCheckFailed')) return 'condition';
    return codes.some((c) => TRANSIENT_REASONS.has(c)) ? 'transient' : 'other';
  }
  if (e.name && TRANSIENT_NAMES.has(e.name)) return 'transient';
  const status = e.$metadata?.httpStatusCode ?? 0;
  if (status >= 500 || e.$fault === 'server') return 'transient';
  return 'other';
}

export const isConditionFailure = (error: unknown) => classifyDynamoError(error) === 'condition';
