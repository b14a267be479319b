import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { classifyDynamoError } from '../../../../../lib/ledger/dynamo/classify-error.js';

const meta = { $metadata: {} };
const cancelled = (codes: string[], message = 'Transaction cancelled') =>
  new TransactionCanceledException({
    ...meta,
    message,
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
const named = (name: string, status = 400) =>
  Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });

describe('classifyDynamoError', () => {
  it.each([
    ['a failed condition', new ConditionalCheckFailedException({ ...meta, message: 'no' }), 'condition'],
    ['a failed condition inside a transaction', cancelled(['ConditionalCheckFailed', 'None']), 'condition'],
    [
      'a failed condition beside a conflict',
      cancelled(['ConditionalCheckFailed', 'TransactionConflict']),
      'condition',
    ],
    ['a transaction conflict', cancelled(['None', 'TransactionConflict']), 'transient'],
    ['a throttled item in a transaction', cancelled(['ThrottlingError', 'None']), 'transient'],
    ['a transaction over provisioned throughput', cancelled(['ProvisionedThroughputExceeded']), 'transient'],
    [
      'reasons given only in the message',
      cancelled(
        [],
        'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict, None]',
      ),
      'transient',
    ],
    ['a validation error in a transaction', cancelled(['ValidationError', 'None']), 'other'],
    ['ThrottlingException', named('ThrottlingException'), 'transient'],
    ['ProvisionedThroughputExceededException', named('ProvisionedThroughputExceededException'), 'transient'],
    ['RequestLimitExceeded', named('RequestLimitExceeded'), 'transient'],
    ['a 500', named('InternalServerError', 500), 'transient'],
    ['a 503 of unknown name', named('SomethingOdd', 503), 'transient'],
    ['a validation error', named('ValidationException'), 'other'],
    ['an abort', Object.assign(new Error('aborted'), { name: 'AbortError' }), 'other'],
    ['not an error at all', 'boom', 'other'],
  ])('%s → %s', (_what, error, expected) => {
    expect(classifyDynamoError(error)).toBe(expected);
  });
});
