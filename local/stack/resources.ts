import { ResourceDefinitionError } from './errors.js';
import { type NotificationRule, readNotifications } from './s3-notification.js';
import { readServerlessDocument, SERVERLESS_FILE } from './serverless-document.js';

export interface KeyElement {
  readonly AttributeName: string;
  readonly KeyType: 'HASH' | 'RANGE';
}

export interface TableDefinition {
  readonly TableName: string;
  readonly BillingMode: string;
  readonly AttributeDefinitions: readonly { AttributeName: string; AttributeType: 'S' | 'N' | 'B' }[];
  readonly KeySchema: readonly KeyElement[];
  readonly GlobalSecondaryIndexes: readonly {
    IndexName: string;
    KeySchema: readonly KeyElement[];
    Projection: { ProjectionType: string };
  }[];
}

export interface QueueDefinition {
  readonly logicalId: string;
  readonly QueueName: string;
  /** Plain attributes, as SQS CreateQueue takes them (strings). */
  readonly attributes: Readonly<Record<string, string>>;
  readonly redrive?: { readonly deadLetterLogicalId: string; readonly maxReceiveCount: number };
}

export interface StackResources {
  readonly bucket: {
    readonly logicalId: string;
    readonly BucketName: string;
    /** Versioning enabled: every upload has a version id (local/stack/versioned-events.ts). */
    readonly versioned?: boolean;
    /** Which events the bucket sends its upload trigger (s3-notification.ts). */
    readonly notifications: readonly NotificationRule[];
  };
  readonly table: TableDefinition & { readonly logicalId: string };
  /** Dead-letter queues come first, so a queue's redrive target always exists when it is created. */
  readonly queues: readonly QueueDefinition[];
}

export interface ResourceVariables {
  readonly service?: string;
  readonly stage: string;
  readonly accountId: string;
  readonly region: string;
}

interface CfnResource {
  Type: string;
  Properties: Record<string, unknown>;
}

const QUEUE_ATTRIBUTES = [
  'VisibilityTimeout',
  'ReceiveMessageWaitTimeSeconds',
  'MessageRetentionPeriod',
  'DelaySeconds',
  'MaximumMessageSize',
  'SqsManagedSseEnabled',
] as const;

/**
 * Resolves the few variables that resource names use; anything else is an error. Serverless
 * variables (`${self:service}`, `${sls:stage}`, `${aws:accountId}`, `${aws:region}`) anywhere;
 * CloudFormation pseudo parameters (`${AWS::AccountId}`, `${AWS::Region}`) inside `Fn::Sub`,
 * which is how serverless.yml names the bucket so that packaging needs no AWS call.
 */
function resolveVariables(text: string, service: string, vars: ResourceVariables, inSub: boolean): string {
  return text.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
    switch (name.trim()) {
      case 'self:service':
        return service;
      case 'sls:stage':
        return vars.stage;
      case 'aws:accountId':
        return vars.accountId;
      case 'aws:region':
        return vars.region;
      case 'AWS::AccountId':
        if (inSub) return vars.accountId;
        break;
      case 'AWS::Region':
        if (inSub) return vars.region;
        break;
    }
    throw new ResourceDefinitionError(`unsupported variable ${whole} in a resource name`);
  });
}

function ofType(resources: Record<string, CfnResource>, type: string): [string, CfnResource][] {
  return Object.entries(resources).filter(([, r]) => r.Type === type);
}

function getAttTarget(value: unknown): string {
  const att = (value as { 'Fn::GetAtt'?: unknown })?.['Fn::GetAtt'];
  if (Array.isArray(att) && att[1] === 'Arn' && typeof att[0] === 'string') return att[0];
  throw new ResourceDefinitionError(
    'a RedrivePolicy deadLetterTargetArn must be { Fn::GetAtt: [<queue>, Arn] }',
  );
}

/** Reads the bucket, ledger table and queues that serverless.yml (or `document`, parsed from it) deploys. */
export function readResources(
  vars: ResourceVariables,
  file: string = SERVERLESS_FILE,
  document: unknown = readServerlessDocument(file),
): StackResources {
  const doc = document as {
    service?: string;
    resources?: { Resources?: Record<string, CfnResource> };
  };
  const resources = doc.resources?.Resources;
  if (!resources) throw new ResourceDefinitionError(`${file} has no resources.Resources`);
  const service = vars.service ?? doc.service ?? 'geohub';
  const name = (value: unknown, what: string): string => {
    if (typeof value === 'string') return resolveVariables(value, service, vars, false);
    const sub = (value as { 'Fn::Sub'?: unknown } | undefined)?.['Fn::Sub'];
    if (typeof sub === 'string') return resolveVariables(sub, service, vars, true);
    throw new ResourceDefinitionError(`${what} needs an explicit name (a string, or Fn::Sub of a string)`);
  };

  const buckets = ofType(resources, 'AWS::S3::Bucket');
  const tables = ofType(resources, 'AWS::DynamoDB::Table');
  if (buckets.length !== 1 || tables.length !== 1) {
    throw new ResourceDefinitionError(`expected one bucket and one table in ${file}`);
  }
  const [bucketId, bucket] = buckets[0]!;
  const [tableId, table] = tables[0]!;
  const tp = table.Properties as unknown as TableDefinition;

  const queues = ofType(resources, 'AWS::SQS::Queue').map(([logicalId, q]): QueueDefinition => {
    const p = q.Properties;
    const attributes: Record<string, string> = {};
    for (const key of QUEUE_ATTRIBUTES) if (p[key] !== undefined) attributes[key] = String(p[key]);
    const policy = p.RedrivePolicy as { deadLetterTargetArn: unknown; maxReceiveCount: number } | undefined;
    return {
      logicalId,
      QueueName: name(p.QueueName, logicalId),
      attributes,
      ...(policy
        ? {
            redrive: {
              deadLetterLogicalId: getAttTarget(policy.deadLetterTargetArn),
              maxReceiveCount: Number(policy.maxReceiveCount),
            },
          }
        : {}),
    };
  });
  queues.sort((a, b) => Number(a.redrive !== undefined) - Number(b.redrive !== undefined));

  return {
    bucket: {
      logicalId: bucketId,
      BucketName: name(bucket.Properties.BucketName, bucketId),
      versioned:
        (bucket.Properties.VersioningConfiguration as { Status?: string } | undefined)?.Status === 'Enabled',
      notifications: readNotifications(bucket.Properties.NotificationConfiguration),
    },
    table: {
      logicalId: tableId,
      TableName: name(tp.TableName, tableId),
      BillingMode: tp.BillingMode,
      AttributeDefinitions: tp.AttributeDefinitions,
      KeySchema: tp.KeySchema,
      GlobalSecondaryIndexes: tp.GlobalSecondaryIndexes ?? [],
    },
    queues,
  };
}
