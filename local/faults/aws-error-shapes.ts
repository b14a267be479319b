import { randomUUID } from 'node:crypto';

/** An HTTP answer the fault layer gives instead of the emulator's. */
export interface InjectedAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** What was injected, for the counts: e.g. `TransactionConflict`, `SlowDown`. */
  readonly kind: string;
}

const DYNAMODB = 'com.amazonaws.dynamodb.v20120810';

/**
 * DynamoDB's JSON 1.0 error, as the service sends it: the SDK takes the name after `#` in
 * `__type` as the error's name, and its retry strategy retries throttling names and 5xx.
 */
function dynamodbError(status: number, type: string, extra: Record<string, unknown>, kind: string) {
  const requestId = randomUUID();
  return {
    status,
    headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': requestId },
    body: JSON.stringify({ __type: type, ...extra }),
    kind,
  };
}

/** One reason per item of the transaction, in order (`None` for the items that were fine). */
export type CancellationCode = 'None' | 'TransactionConflict' | 'ThrottlingError';

const REASON_MESSAGES: Record<CancellationCode, string | undefined> = {
  None: undefined,
  TransactionConflict: 'Transaction is ongoing for the item',
  ThrottlingError: 'Throughput exceeds the current capacity of your table or index.',
};

/** A cancelled transaction; the SDK does not retry it (the caller must). */
export function transactionCanceled(codes: readonly CancellationCode[]): InjectedAnswer {
  const reasons = codes.map((Code) =>
    REASON_MESSAGES[Code] ? { Code, Message: REASON_MESSAGES[Code] } : { Code },
  );
  return dynamodbError(
    400,
    `${DYNAMODB}#TransactionCanceledException`,
    {
      Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
      CancellationReasons: reasons,
    },
    codes.find((c) => c !== 'None') ?? 'TransactionCanceled',
  );
}

/** A single-item write that met an ongoing transaction on its item. */
export function transactionConflict(): InjectedAnswer {
  return dynamodbError(
    400,
    `${DYNAMODB}#TransactionConflictException`,
    { message: 'Transaction is ongoing for the item' },
    'TransactionConflictException',
  );
}

export function dynamodbThrottled(provisioned: boolean): InjectedAnswer {
  return provisioned
    ? dynamodbError(
        400,
        `${DYNAMODB}#ProvisionedThroughputExceededException`,
        {
          message:
            'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.',
        },
        'ProvisionedThroughputExceededException',
      )
    : dynamodbError(
        400,
        'com.amazon.coral.availability#ThrottlingException',
        { message: 'Throughput exceeds the current capacity of your table or index.' },
        'ThrottlingException',
      );
}

export function dynamodbInternalError(): InjectedAnswer {
  return dynamodbError(
    500,
    'com.amazonaws.dynamodb.v20120810#InternalServerError',
    { message: 'Internal server error' },
    'InternalServerError',
  );
}

/** S3's REST-XML error document (no body for HEAD, as S3 does). */
export function s3Error(status: 500 | 503, head: boolean): InjectedAnswer {
  const [code, message] =
    status === 503
      ? ['SlowDown', 'Please reduce your request rate.']
      : ['InternalError', 'We encountered an internal error. Please try again.'];
  const requestId = randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase();
  const hostId = Buffer.from(randomUUID()).toString('base64');
  return {
    status,
    headers: { 'content-type': 'application/xml', 'x-amz-request-id': requestId, 'x-amz-id-2': hostId },
    body: head
      ? ''
      : `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>${requestId}</RequestId><HostId>${hostId}</HostId></Error>`,
    kind: code,
  };
}

/** SQS's JSON-protocol 500 (the query-compatible error code travels in a header). */
export function sqsInternalError(): InjectedAnswer {
  return {
    status: 500,
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amzn-requestid': randomUUID(),
      'x-amzn-query-error': 'InternalFailure;Receiver',
    },
    body: JSON.stringify({
      __type: 'com.amazon.coral.service#InternalFailure',
      message: 'The request processing has failed because of an unknown error, exception or failure.',
    }),
    kind: 'InternalFailure',
  };
}
