import { dynamoDbRequest } from './service-probe.js';

/**
 * The requests a run makes of DynamoDB Local, made once while its class-data archive is being
 * made (prepare-class-archive.ts): the classes that serve them are then in the archive, not
 * loaded from the jars during every run's first requests (~300 of them). Best effort: an answer
 * that is an error still loaded what it took to give it.
 */
export async function exerciseDynamoDb(endpoint: string, keyId: string): Promise<void> {
  const call = (target: string, body: unknown) =>
    dynamoDbRequest(endpoint, keyId, target, body, 10_000).then(
      (r) => r.text(),
      () => '',
    );
  const TableName = 'geohub-archive-training';
  const key = (pk: string, sk: string) => ({ PK: { S: pk }, SK: { S: sk } });
  await call('CreateTable', {
    TableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: ['PK', 'SK', 'GSI1PK', 'GSI1SK'].map((n) => ({
      AttributeName: n,
      AttributeType: 'S',
    })),
    KeySchema: [
      { AttributeName: 'PK', KeyType: 'HASH' },
      { AttributeName: 'SK', KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: 'GSI1',
        KeySchema: [
          { AttributeName: 'GSI1PK', KeyType: 'HASH' },
          { AttributeName: 'GSI1SK', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
    ],
  });
  await call('DescribeTable', { TableName });
  await call('PutItem', {
    TableName,
    Item: { ...key('RUN#r', 'META'), GSI1PK: { S: 'RUNS' }, GSI1SK: { S: 'r' }, done: { N: '0' } },
    ConditionExpression: 'attribute_not_exists(PK)',
  });
  await call('UpdateItem', {
    TableName,
    Key: key('RUN#r', 'META'),
    UpdateExpression: 'ADD #d :one SET #s = :s',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeNames: { '#d': 'done', '#s': 'status' },
    ExpressionAttributeValues: { ':one': { N: '1' }, ':s': { S: 'RUNNING' } },
    ReturnValues: 'ALL_NEW',
  });
  await call('TransactWriteItems', {
    TransactItems: [
      {
        Put: {
          TableName,
          Item: { ...key('RUN#r', 'TILE#1'), v: { S: 'x' } },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      {
        Update: {
          TableName,
          Key: key('RUN#r', 'META'),
          UpdateExpression: 'ADD #d :one',
          ExpressionAttributeNames: { '#d': 'done' },
          ExpressionAttributeValues: { ':one': { N: '1' } },
        },
      },
      {
        ConditionCheck: { TableName, Key: key('RUN#r', 'META'), ConditionExpression: 'attribute_exists(PK)' },
      },
      { Delete: { TableName, Key: key('RUN#r', 'CLAIM#1') } },
    ],
  });
  // A transaction refused by its condition: the cancellation path.
  await call('TransactWriteItems', {
    TransactItems: [
      { Put: { TableName, Item: key('RUN#r', 'TILE#1'), ConditionExpression: 'attribute_not_exists(PK)' } },
    ],
  });
  await call('GetItem', { TableName, Key: key('RUN#r', 'META'), ConsistentRead: true });
  await call('BatchGetItem', {
    RequestItems: { [TableName]: { Keys: [key('RUN#r', 'META'), key('RUN#r', 'TILE#1')] } },
  });
  await call('Query', {
    TableName,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
    ExpressionAttributeValues: { ':pk': { S: 'RUN#r' }, ':p': { S: 'TILE#' } },
    Limit: 10,
  });
  await call('Query', {
    TableName,
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': { S: 'RUNS' } },
    ScanIndexForward: false,
  });
  await call('BatchWriteItem', {
    RequestItems: {
      [TableName]: [
        { PutRequest: { Item: key('RUN#r', 'TILE#2') } },
        { DeleteRequest: { Key: key('RUN#r', 'TILE#1') } },
      ],
    },
  });
  await call('DeleteItem', { TableName, Key: key('RUN#r', 'TILE#2') });
  await call('Scan', { TableName, Limit: 5 });
  await call('DeleteTable', { TableName });
}
