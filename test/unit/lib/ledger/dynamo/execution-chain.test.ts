import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createDynamoExecutionChain } from '../../../../../lib/ledger/dynamo/execution-chain.js';
import { LedgerBusyError } from '../../../../../lib/ledger/errors.js';

// Error branches only: the chain's behaviour against DynamoDB Local is in
// test/integration/coordination/long-runs.test.ts.
const documents = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1', maxAttempts: 1 }));
const mock = mockClient(documents);
afterEach(() => mock.reset());

const sleeps: number[] = [];
const chain = createDynamoExecutionChain(documents, 'ledger', {
  now: () => Date.UTC(2026, 11, 6),
  retry: {
    attempts: 3,
    baseDelayMs: 10,
    maxDelayMs: 40,
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 0.5,
  },
});
const ARN = 'arn:aws:states:eu-west-1:1:execution:geohub:r-00000001-1';
const throttled = () =>
  Object.assign(new Error('Rate exceeded'), {
    name: 'ThrottlingException',
    $metadata: { httpStatusCode: 400 },
  });
const running = { PK: 'RUN#r-00000001', SK: 'XEXEC#t#r-00000001-1', executionArn: ARN, status: 'RUNNING' };
const conditionFailed = () =>
  new ConditionalCheckFailedException({ $metadata: {}, message: 'The conditional request failed' });

describe('the execution chain under AWS errors', () => {
  it('a throttled record of a start is retried with back-off, then lands once', async () => {
    sleeps.length = 0;
    mock.on(QueryCommand).resolves({ Items: [] });
    mock.on(PutCommand).rejectsOnce(throttled()).resolves({});
    await chain.started('r-00000001', ARN, 'upload');
    expect(mock.commandCalls(PutCommand)).toHaveLength(2);
    expect(sleeps).toEqual([5]);
    const input = mock.commandCalls(PutCommand)[0]!.args[0].input;
    expect(input.ConditionExpression).toBe('attribute_not_exists(SK)');
    expect(input.Item).toMatchObject({
      SK: 'XEXEC#2026-12-06T00:00:00.000Z#r-00000001-1',
      status: 'RUNNING',
    });
  });

  it('a throttled Query is retried too; exhausted, it is LedgerBusyError, not a lost start', async () => {
    mock.on(QueryCommand).rejects(throttled());
    await expect(chain.started('r-00000001', ARN, 'upload')).rejects.toBeInstanceOf(LedgerBusyError);
    expect(mock.commandCalls(QueryCommand)).toHaveLength(3);
    expect(mock.commandCalls(PutCommand)).toHaveLength(0);
  });

  it('an end recorded twice at once: the condition failure of the second is not an error', async () => {
    mock.on(QueryCommand).resolves({ Items: [running] });
    mock.on(UpdateCommand).rejects(conditionFailed());
    await chain.ended('r-00000001', ARN, { status: 'SUCCEEDED' });
    const input = mock.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(input.ConditionExpression).toBe('#status = :running');
    expect(input.ExpressionAttributeValues).toMatchObject({
      ':status': 'SUCCEEDED',
      ':running': 'RUNNING',
      ':error': null,
    });
  });

  it('any other refusal of the end passes through', async () => {
    mock.on(QueryCommand).resolves({ Items: [running] });
    mock
      .on(UpdateCommand)
      .rejects(
        Object.assign(new Error('no'), { name: 'ValidationException', $metadata: { httpStatusCode: 400 } }),
      );
    await expect(chain.ended('r-00000001', ARN, { status: 'FAILED', error: 'E' })).rejects.toThrow('no');
  });
});
