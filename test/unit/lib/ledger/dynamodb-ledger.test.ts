import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { ledgerContext } from '../../../../lib/ledger/dynamo/context.js';
import { dynamoMetatileStore } from '../../../../lib/ledger/dynamo/metatile-store.js';
import { createDynamoLedger } from '../../../../lib/ledger/dynamodb-ledger.js';
import { LeaseLostError, LedgerBusyError } from '../../../../lib/ledger/errors.js';
import { claimHandle } from '../../../../lib/ledger/metatiles/claim-handle.js';
import { metatileOf } from '../../../../lib/model/metatile.js';

const documents = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1', maxAttempts: 1 }));
const mock = mockClient(documents);
afterEach(() => mock.reset());

const sleeps: number[] = [];
const options = {
  now: () => 1_000_000,
  retry: {
    attempts: 4,
    baseDelayMs: 10,
    maxDelayMs: 40,
    sleep: async (ms: number) => void sleeps.push(ms),
    random: () => 0.5,
  },
};
const ledger = createDynamoLedger(documents, 'ledger', options);
const metatile = metatileOf([
  { id: 'aaaaaaaaaaaaaaaa', z: 3, x: 1, y: 1 },
  { id: 'bbbbbbbbbbbbbbbb', z: 3, x: 2, y: 1 },
]);
/** w1's claim, as `claim` hands it out: its calls go to the mocked client. */
const held = claimHandle(
  dynamoMetatileStore(ledgerContext(documents, 'ledger', options)),
  'r-00000001',
  metatile,
  'w1',
  60_000,
);
const outputs = new Map(
  metatile.tiles.map((t) => [t.id, { key: `tiles/r/${t.id}.tif`, etag: 'e', bytes: 1 }]),
);
const $metadata = {};
const conflict = () =>
  new TransactionCanceledException({
    $metadata,
    message: 'Transaction cancelled',
    CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }],
  });
const throttled = () =>
  Object.assign(new Error('Rate exceeded'), {
    name: 'ThrottlingException',
    $metadata: { httpStatusCode: 400 },
  });
const serverError = () =>
  Object.assign(new Error('internal'), {
    name: 'InternalServerError',
    $fault: 'server',
    $metadata: { httpStatusCode: 500 },
  });

describe('the DynamoDB ledger under AWS errors', () => {
  it('a marker cancelled by transaction conflicts is retried with back-off, one client token throughout', async () => {
    sleeps.length = 0;
    mock.on(TransactWriteCommand).rejectsOnce(conflict()).rejectsOnce(conflict()).resolves({});
    await held.markDone(outputs, 5);
    const calls = mock.commandCalls(TransactWriteCommand);
    expect(calls).toHaveLength(3);
    const tokens = new Set(calls.map((c) => c.args[0].input.ClientRequestToken));
    expect(tokens.size).toBe(1);
    expect([...tokens][0]).toMatch(/^[0-9a-f-]{36}$/);
    // Full jitter, doubling: half of 10 ms, then half of 20 ms.
    expect(sleeps).toEqual([5, 10]);
    // The counter shard is counted in sub-tiles, beside the metatile's own update.
    const items = calls[0]!.args[0].input.TransactItems!;
    expect(items[1]?.Update?.Key?.SK).toMatch(/^COUNT#\d{2}$/);
    expect(items[1]?.Update?.ExpressionAttributeValues?.[':add_done']).toBe(2);
  });

  it('throttling and 5xx on a claim are retried, not reported', async () => {
    mock
      .on(UpdateCommand)
      .rejectsOnce(throttled())
      .rejectsOnce(serverError())
      .resolves({ Attributes: { attempts: 1 } });
    expect(await ledger.claim('r-00000001', metatile, 'w1', 60_000)).toMatchObject({
      outcome: 'claimed',
      attempts: 1,
    });
    expect(mock.commandCalls(UpdateCommand)).toHaveLength(3);
  });

  it('a ledger that stays busy ends in LedgerBusyError after the bounded attempts', async () => {
    mock.on(TransactWriteCommand).rejects(conflict());
    const error = await held.markDone(outputs, 5).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LedgerBusyError);
    expect((error as Error).cause).toBeInstanceOf(TransactionCanceledException);
    // A marker follows the work: half as many attempts again as the policy's 4 (a claim gets 4).
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(6);
  });

  it('a claim gives up after the policy’s attempts: nothing is lost by giving a claim up', async () => {
    mock.on(UpdateCommand).rejects(throttled());
    const error = await ledger.claim('r-00000001', metatile, 'w1', 60_000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LedgerBusyError);
    expect(mock.commandCalls(UpdateCommand)).toHaveLength(4);
  });

  it('a failed condition inside the marker transaction is a lost lease, not retried', async () => {
    // The marker's read-back (was it our own earlier write?) finds nothing.
    mock.onAnyCommand().resolves({});
    mock.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        $metadata,
        message: 'Transaction cancelled',
        CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }],
      }),
    );
    await expect(held.markDone(outputs, 5)).rejects.toBeInstanceOf(LeaseLostError);
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('a release whose lease is gone is left alone; other errors surface', async () => {
    mock.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        $metadata,
        message: 'Transaction cancelled',
        CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }],
      }),
    );
    await held.release({
      state: 'PARKED',
      error: { class: 'E', message: 'm' },
    });
    mock.on(TransactWriteCommand).rejects(Object.assign(new Error('bad'), { name: 'ValidationException' }));
    await expect(held.release({ state: 'PARKED', error: { class: 'E', message: 'm' } })).rejects.toThrow(
      'bad',
    );
  });

  it('an uncounted release is one plain update, no transaction', async () => {
    mock.on(UpdateCommand).resolves({});
    await held.release({ state: 'QUEUED' });
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(0);
    const [call] = mock.commandCalls(UpdateCommand);
    expect(call?.args[0].input.ConditionExpression).toBe('(#owner = :owner) AND (#state = :is_CLAIMED)');
  });
});
