import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { stackClients } from '../../support/stack-clients.js';

const { config, clients } = stackClients();
const db = clients.documents;
afterAll(() => clients.destroy());

describe('DynamoDB Local behaves as DynamoDB does', () => {
  it('rejects a conditional write whose condition fails, and keeps the first value', async () => {
    const key = { PK: `TEST#${randomUUID()}`, SK: 'META' };
    const put = (owner: string) =>
      db.send(
        new PutCommand({
          TableName: config.table,
          Item: { ...key, owner },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      );
    await put('first');
    await expect(put('second')).rejects.toBeInstanceOf(ConditionalCheckFailedException);
    const { Item } = await db.send(new GetCommand({ TableName: config.table, Key: key }));
    expect(Item?.owner).toBe('first');
  });

  it('applies a TransactWriteItems all-or-nothing', async () => {
    const run = `TEST#${randomUUID()}`;
    const marker = { PK: run, SK: 'TILE#1' };
    const counter = { PK: run, SK: 'META' };
    await db.send(new PutCommand({ TableName: config.table, Item: { ...counter, done: 0 } }));
    await db.send(new PutCommand({ TableName: config.table, Item: { ...marker, state: 'DONE' } }));

    // The marker already exists, so the whole transaction must fail, counter included.
    const error = await db
      .send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: config.table,
                Item: { ...marker, state: 'DONE' },
                ConditionExpression: 'attribute_not_exists(PK)',
              },
            },
            {
              Update: {
                TableName: config.table,
                Key: counter,
                UpdateExpression: 'ADD done :one',
                ExpressionAttributeValues: { ':one': 1 },
              },
            },
          ],
        }),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionCanceledException);
    expect((error as TransactionCanceledException).CancellationReasons?.map((r) => r.Code)).toEqual([
      'ConditionalCheckFailed',
      'None',
    ]);
    const { Item } = await db.send(new GetCommand({ TableName: config.table, Key: counter }));
    expect(Item?.done).toBe(0);

    // And when every condition holds, both writes land.
    const fresh = { PK: run, SK: 'TILE#2' };
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: config.table, Item: fresh, ConditionExpression: 'attribute_not_exists(PK)' } },
          {
            Update: {
              TableName: config.table,
              Key: counter,
              UpdateExpression: 'ADD done :one',
              ExpressionAttributeValues: { ':one': 1 },
            },
          },
        ],
      }),
    );
    const after = await db.send(new GetCommand({ TableName: config.table, Key: counter }));
    expect(after.Item?.done).toBe(1);
  });
});
