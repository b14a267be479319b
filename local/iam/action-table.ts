import type { ApiCall, IamService, Need } from './api-call.js';
import type { ArnOf } from './arn-templates.js';
import { UnknownOperationError } from './errors.js';

type Params = Readonly<Record<string, unknown>>;
type Rule = (params: Params, arn: ArnOf) => Need[];

const str = (value: unknown): string => (typeof value === 'string' ? value : String(value ?? ''));
const has = (params: Params, name: string) => params[name] !== undefined && params[name] !== '';

// ---- S3 (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazons3.html,
// and each API's "Permissions" section in the S3 API Reference) ----
const object = (p: Params, arn: ArnOf) =>
  arn('s3:object', { BucketName: str(p.Bucket), ObjectName: str(p.Key) });
const bucket = (p: Params, arn: ArnOf) => arn('s3:bucket', { BucketName: str(p.Bucket) });
const onObject =
  (action: string): Rule =>
  (p, arn) => [{ action, resource: object(p, arn) }];
const onBucket =
  (action: string): Rule =>
  (p, arn) => [{ action, resource: bucket(p, arn) }];
// A read of a named version is GetObjectVersion, not GetObject (HEAD is authorised as a GET).
const getObject: Rule = (p, arn) => [
  { action: has(p, 'VersionId') ? 's3:GetObjectVersion' : 's3:GetObject', resource: object(p, arn) },
];

// A copy writes its target and reads its source (a named version: GetObjectVersion).
const copy: Rule = (p, arn) => [
  { action: 's3:PutObject', resource: object(p, arn) },
  ...getObject((p.CopySource ?? {}) as Params, arn),
];

const S3: Record<string, Rule> = {
  GetObject: getObject,
  HeadObject: getObject,
  PutObject: onObject('s3:PutObject'),
  // Every step of a multipart upload but its abort and listing is authorised as PutObject.
  CreateMultipartUpload: onObject('s3:PutObject'),
  UploadPart: onObject('s3:PutObject'),
  CompleteMultipartUpload: onObject('s3:PutObject'),
  AbortMultipartUpload: onObject('s3:AbortMultipartUpload'),
  CopyObject: copy,
  // A multipart copy's part: the same two, each time (list_amazons3.html, UploadPartCopy).
  UploadPartCopy: copy,
  ListParts: onObject('s3:ListMultipartUploadParts'),
  DeleteObject: (p, arn) => [
    { action: has(p, 'VersionId') ? 's3:DeleteObjectVersion' : 's3:DeleteObject', resource: object(p, arn) },
  ],
  // Listing is an action on the bucket, not on the keys under the prefix.
  ListObjectsV2: onBucket('s3:ListBucket'),
  ListObjects: onBucket('s3:ListBucket'),
  ListObjectVersions: onBucket('s3:ListBucketVersions'),
  ListMultipartUploads: onBucket('s3:ListBucketMultipartUploads'),
  HeadBucket: onBucket('s3:ListBucket'),
  CreateBucket: onBucket('s3:CreateBucket'),
  GetBucketLocation: onBucket('s3:GetBucketLocation'),
};

// ---- DynamoDB (list_amazondynamodb.html; "Using IAM with DynamoDB transactions") ----
const tableOrIndex = (p: Params, arn: ArnOf) =>
  has(p, 'IndexName')
    ? arn('dynamodb:index', { TableName: str(p.TableName), IndexName: str(p.IndexName) })
    : arn('dynamodb:table', { TableName: str(p.TableName) });
const onTable =
  (action: string): Rule =>
  (p, arn) => [{ action, resource: tableOrIndex(p, arn) }];
// A batch is its own action, on every table it names.
const onEachTable =
  (action: string): Rule =>
  (p, arn) =>
    Object.keys((p.RequestItems ?? {}) as object).map((TableName) => ({
      action,
      resource: arn('dynamodb:table', { TableName }),
    }));
// A transaction has no action of its own: each item needs the action of its kind, on its table.
const ITEM_ACTIONS: Record<string, string> = {
  Put: 'dynamodb:PutItem',
  Update: 'dynamodb:UpdateItem',
  Delete: 'dynamodb:DeleteItem',
  ConditionCheck: 'dynamodb:ConditionCheckItem',
  Get: 'dynamodb:GetItem',
};
const eachItem: Rule = (p, arn) =>
  ((p.TransactItems ?? []) as Record<string, { TableName?: string }>[]).flatMap((entry) =>
    Object.entries(entry).map(([kind, item]) => {
      const action = ITEM_ACTIONS[kind];
      if (!action) throw new UnknownOperationError(`no IAM action for a transaction item of kind ${kind}`);
      return { action, resource: arn('dynamodb:table', { TableName: str(item.TableName) }) };
    }),
  );

const DYNAMODB: Record<string, Rule> = {
  GetItem: onTable('dynamodb:GetItem'),
  PutItem: onTable('dynamodb:PutItem'),
  UpdateItem: onTable('dynamodb:UpdateItem'),
  DeleteItem: onTable('dynamodb:DeleteItem'),
  // On an index the index's ARN, on the table the table's: neither covers the other.
  Query: onTable('dynamodb:Query'),
  Scan: onTable('dynamodb:Scan'),
  BatchGetItem: onEachTable('dynamodb:BatchGetItem'),
  BatchWriteItem: onEachTable('dynamodb:BatchWriteItem'),
  TransactWriteItems: eachItem,
  TransactGetItems: eachItem,
  CreateTable: onTable('dynamodb:CreateTable'),
  DescribeTable: onTable('dynamodb:DescribeTable'),
};

// ---- SQS (list_amazonsqs.html: "batch APIs are authorised as their single-message action") ----
/** The queue's name is the last segment of its URL, on AWS and on the local stand-in. */
export const queueName = (url: string): string => url.replace(/\/+$/, '').split('/').pop() ?? '';
const onQueue =
  (action: string): Rule =>
  (p, arn) => [{ action, resource: arn('sqs:queue', { QueueName: queueName(str(p.QueueUrl)) }) }];

const SQS: Record<string, Rule> = {
  SendMessage: onQueue('sqs:SendMessage'),
  SendMessageBatch: onQueue('sqs:SendMessage'),
  ReceiveMessage: onQueue('sqs:ReceiveMessage'),
  DeleteMessage: onQueue('sqs:DeleteMessage'),
  DeleteMessageBatch: onQueue('sqs:DeleteMessage'),
  ChangeMessageVisibility: onQueue('sqs:ChangeMessageVisibility'),
  ChangeMessageVisibilityBatch: onQueue('sqs:ChangeMessageVisibility'),
  GetQueueAttributes: onQueue('sqs:GetQueueAttributes'),
  PurgeQueue: onQueue('sqs:PurgeQueue'),
  GetQueueUrl: (p, arn) => [
    { action: 'sqs:GetQueueUrl', resource: arn('sqs:queue', { QueueName: str(p.QueueName) }) },
  ],
  CreateQueue: (p, arn) => [
    { action: 'sqs:CreateQueue', resource: arn('sqs:queue', { QueueName: str(p.QueueName) }) },
  ],
};

// ---- Step Functions, ECS, Lambda ----
const stateMachineName = (stateMachineArn: string) => stateMachineArn.split(':')[6] ?? '';
const execution =
  (action: string): Rule =>
  (p, arn) => {
    // arn:aws:states:<region>:<account>:execution:<state machine>:<name>
    const parts = str(p.executionArn).split(':');
    return [
      {
        action,
        resource: arn('states:execution', { StateMachineName: parts[6] ?? '', ExecutionId: parts[7] ?? '' }),
      },
    ];
  };
const STATES: Record<string, Rule> = {
  StartExecution: (p, arn) => [
    {
      action: 'states:StartExecution',
      resource: arn('states:stateMachine', { StateMachineName: stateMachineName(str(p.stateMachineArn)) }),
    },
  ],
  DescribeExecution: execution('states:DescribeExecution'),
  StopExecution: execution('states:StopExecution'),
};

/** `service` is a name or an ARN (arn:aws:ecs:<region>:<account>:service/<cluster>/<name>). */
const ecsServices =
  (action: string): Rule =>
  (p, arn) => {
    const cluster = str(p.cluster ?? 'default');
    const names = (p.services as string[] | undefined) ?? [str(p.service)];
    return names.map((name) => ({
      action,
      resource: name.startsWith('arn:')
        ? name
        : arn('ecs:service', { ClusterName: cluster.split('/').pop() ?? cluster, ServiceName: name }),
    }));
  };
const ECS: Record<string, Rule> = {
  DescribeServices: ecsServices('ecs:DescribeServices'),
  UpdateService: ecsServices('ecs:UpdateService'),
};

const LAMBDA: Record<string, Rule> = {
  Invoke: (p, arn) => [
    {
      action: 'lambda:InvokeFunction',
      resource: str(p.FunctionName).startsWith('arn:')
        ? str(p.FunctionName)
        : arn('lambda:function', { FunctionName: str(p.FunctionName) }),
    },
  ],
};

// ---- CloudFormation (list_awscloudformation.html): the CLI's --stage finds its stack ----
const CLOUDFORMATION: Record<string, Rule> = {
  // A stack named, not by its ARN: its id is unknown to the caller, any id of that name matches.
  DescribeStacks: (p, arn) => [
    {
      action: 'cloudformation:DescribeStacks',
      resource: str(p.StackName).startsWith('arn:')
        ? str(p.StackName)
        : arn('cloudformation:stack', { StackName: str(p.StackName), Id: LOCAL_STACK_ID }),
    },
  ],
};

/** The id part of the local stack's ARN (CloudFormation gives each stack a UUID). */
export const LOCAL_STACK_ID = '6f1c3a2e-0000-4000-8000-000000000000';

/** Every API call geohub makes (and the stand-ins' provisioning), by service and operation. */
export const ACTION_TABLE: Readonly<Record<IamService, Readonly<Record<string, Rule>>>> = {
  s3: S3,
  dynamodb: DYNAMODB,
  sqs: SQS,
  states: STATES,
  ecs: ECS,
  lambda: LAMBDA,
  cloudformation: CLOUDFORMATION,
};

/** What one call needs: each IAM action with the resource ARN it is checked on. */
export function needsOf(call: ApiCall, arn: ArnOf): Need[] {
  const rule = ACTION_TABLE[call.service][call.operation];
  if (!rule) throw new UnknownOperationError(`no IAM actions known for ${call.service}:${call.operation}`);
  return rule(call.params, arn);
}
