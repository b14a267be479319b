import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import type { AwsClients } from '../../../../lib/aws/clients.js';
import { provision } from '../../../../local/stack/provision.js';
import { readResources } from '../../../../local/stack/resources.js';

const resources = readResources({ stage: 'local', accountId: '000000000000', region: 'us-east-1' });
const dynamo = mockClient(DynamoDBClient);
const s3 = mockClient(S3Client);
const sqs = mockClient(SQSClient);

const clients = () =>
  ({
    dynamodb: new DynamoDBClient({ region: 'us-east-1' }),
    s3: new S3Client({ region: 'us-east-1' }),
    sqs: new SQSClient({ region: 'us-east-1' }),
  }) as unknown as AwsClients;

function answerQueues() {
  sqs.on(CreateQueueCommand).callsFake((input: { QueueName: string }) => ({
    QueueUrl: `http://sqs.local/000000000000/${input.QueueName}`,
  }));
  sqs.on(GetQueueAttributesCommand).callsFake((input: { QueueUrl: string }) => ({
    Attributes: { QueueArn: `arn:aws:sqs:us-east-1:000000000000:${input.QueueUrl.split('/').pop()}` },
  }));
  s3.on(CreateBucketCommand).resolves({});
}

afterEach(() => {
  dynamo.reset();
  s3.reset();
  sqs.reset();
});

describe('provision: the table waited for only while it is not ACTIVE', () => {
  it('a table and indexes ACTIVE in the CreateTable answer (DynamoDB Local) are not described again', async () => {
    const indexes = resources.table.GlobalSecondaryIndexes.map((i) => ({
      IndexName: i.IndexName,
      IndexStatus: 'ACTIVE' as const,
    }));
    dynamo.on(CreateTableCommand).resolves({
      TableDescription: { TableStatus: 'ACTIVE', GlobalSecondaryIndexes: indexes },
    });
    answerQueues();
    const names = await provision(clients(), resources);
    expect(dynamo.commandCalls(DescribeTableCommand)).toHaveLength(0);
    expect(names.table).toBe(resources.table.TableName);
  });

  it('a table still CREATING (AWS) is waited for: DescribeTable until it says ACTIVE', async () => {
    dynamo.on(CreateTableCommand).resolves({ TableDescription: { TableStatus: 'CREATING' } });
    // ACTIVE at the waiter's first look (its next would be 20 s later).
    dynamo.on(DescribeTableCommand).resolves({ Table: { TableStatus: 'ACTIVE' } });
    answerQueues();
    await provision(clients(), resources);
    expect(dynamo.commandCalls(DescribeTableCommand).map((c) => c.args[0].input)).toEqual([
      { TableName: resources.table.TableName },
    ]);
  });
});
