import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readResources } from '../../../local/stack/resources.js';
import {
  ACCOUNT,
  asArray,
  extractZip,
  getAtt,
  HANDLER_FILES,
  lambdaFor,
  lambdas,
  ofType,
  PACKAGE_DIR,
  packagedTemplate,
  props,
  REGION,
  resolveValue,
  resource,
  SERVICE,
  STAGE,
} from '../../support/serverless-template.js';

// Packaged once per test run (under a lock shared by the deploy test files), before collection.
const template = await packagedTemplate();

describe('npm run package (offline, no credentials)', () => {
  it('bundles every handler of functions/ into its own Lambda on Node 22', () => {
    expect(HANDLER_FILES.length).toBe(12);
    for (const file of HANDLER_FILES) {
      const [, fn] = lambdaFor(template, file);
      const p = props<{ Runtime: string; FunctionName: string; Code: { S3Key: string } }>(fn);
      expect(p.Runtime).toBe('nodejs22.x');
      expect(p.FunctionName).toBe(`${SERVICE}-${STAGE}-${file}`);
      expect(existsSync(join(PACKAGE_DIR, basename(p.Code.S3Key))), `${p.Code.S3Key} was built`).toBe(true);
    }
    expect(lambdas(template)).toHaveLength(HANDLER_FILES.length);
  });

  it('builds bundles that load on Node and reach AWS with only their environment', () => {
    // Each zip is extracted and imported by a plain node process, as the Lambda runtime does.
    const dir = mkdtempSync(join(tmpdir(), 'geohub-bundles-'));
    try {
      for (const zip of readdirSync(PACKAGE_DIR).filter((f) => f.endsWith('.zip')))
        expect(extractZip(join(PACKAGE_DIR, zip), dir).some((n) => n.endsWith('.mjs.map'))).toBe(true);
      const script = [
        'const out = {};',
        `for (const f of ${JSON.stringify(HANDLER_FILES)}) {`,
        `  const m = await import(${JSON.stringify(`${dir}/functions/`)} + f + '.mjs');`,
        '  out[f] = typeof m.handler;',
        '}',
        // One call through the SDK: the reaper queries the ledger (nothing listens on port 9).
        `const { handler } = await import(${JSON.stringify(`${dir}/functions/reaper.mjs`)});`,
        'try { await handler({}, {}); out.call = "no error"; } catch (e) { out.call = e.code ?? e.name; }',
        'process.stdout.write(JSON.stringify(out));',
      ].join('\n');
      const env = {
        PATH: process.env.PATH,
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        GEOHUB_BUCKET: `${SERVICE}-${STAGE}-${ACCOUNT}-data`,
        GEOHUB_TABLE: `${SERVICE}-${STAGE}-ledger`,
        GEOHUB_QUEUE_URL: 'http://127.0.0.1:9/work',
        GEOHUB_DLQ_URL: 'http://127.0.0.1:9/dlq',
        GEOHUB_ENDPOINT_DYNAMODB: 'http://127.0.0.1:9',
        GEOHUB_MAX_ATTEMPTS: '1',
      };
      const out = JSON.parse(
        execFileSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8' }),
      ) as Record<string, string>;
      expect(out).toEqual({
        ...Object.fromEntries(HANDLER_FILES.map((f) => [f, 'function'])),
        call: 'ECONNREFUSED',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000); // ten bundles imported by a cold node process: slow on a loaded machine, not a performance check

  it('leaves no Serverless variable unresolved and no account id baked in', () => {
    const text = JSON.stringify(template);
    expect(text).not.toMatch(/\$\{(self|sls|opt|param|aws|env|file):/);
    expect(text).not.toMatch(/\b\d{12}\b/);
  });

  it('names the bucket, table and queues exactly as the local stack creates them', () => {
    const local = readResources({ stage: STAGE, accountId: ACCOUNT, region: REGION });
    expect(resolveValue(template, { Ref: local.bucket.logicalId })).toBe(local.bucket.BucketName);
    expect(resolveValue(template, { Ref: local.table.logicalId })).toBe(local.table.TableName);
    const table = props<Record<string, unknown>>(resource(template, local.table.logicalId));
    expect(table.KeySchema).toEqual(local.table.KeySchema);
    expect(table.GlobalSecondaryIndexes).toEqual(local.table.GlobalSecondaryIndexes);
    for (const q of local.queues) {
      expect(props(resource(template, q.logicalId)).QueueName).toBe(q.QueueName);
    }
  });
});

describe('queue, table and bucket', () => {
  it('sends a message to the dead-letter queue after 3 receives', () => {
    const work = props<{ RedrivePolicy: { deadLetterTargetArn: unknown; maxReceiveCount: number } }>(
      resource(template, 'WorkQueue'),
    );
    expect(work.RedrivePolicy.maxReceiveCount).toBe(3);
    expect(work.RedrivePolicy.deadLetterTargetArn).toEqual(getAtt('DeadLetterQueue'));
  });

  it('keeps a dead letter at least 7 days in the DLQ, though its retention counts from its first enqueue', () => {
    // SQS keeps a message's enqueue time when it moves it to the DLQ, and expires it there by
    // the DLQ's retention from that time: a DLQ that keeps no longer than the work queue can
    // lose a letter the moment it arrives.
    const retention = (id: string) =>
      Number(props<{ MessageRetentionPeriod: number }>(resource(template, id)).MessageRetentionPeriod);
    expect(retention('DeadLetterQueue') - retention('WorkQueue')).toBeGreaterThanOrEqual(7 * 24 * 3600);
  });

  it('encrypts the bucket, both queues and the table', () => {
    const buckets = ofType(template, 'AWS::S3::Bucket');
    expect(buckets.length).toBeGreaterThanOrEqual(2); // data + deployment
    for (const [id, b] of buckets) {
      const sse = props<{ BucketEncryption?: { ServerSideEncryptionConfiguration: unknown[] } }>(b);
      expect(sse.BucketEncryption?.ServerSideEncryptionConfiguration, id).toEqual([
        { ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } },
      ]);
    }
    const queues = ofType(template, 'AWS::SQS::Queue');
    expect(queues.map(([id]) => id).sort()).toEqual(['DeadLetterQueue', 'WorkQueue']);
    for (const [id, q] of queues) expect(props(q).SqsManagedSseEnabled, id).toBe(true);
    for (const [id, t] of ofType(template, 'AWS::DynamoDB::Table'))
      expect(props(t).SSESpecification, id).toEqual({ SSEEnabled: true });
  });

  it('blocks public access on every bucket and refuses plain HTTP on the data bucket', () => {
    for (const [id, b] of ofType(template, 'AWS::S3::Bucket')) {
      expect(props(b).PublicAccessBlockConfiguration, id).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
    }
    const policy = props<{ Bucket: unknown; PolicyDocument: { Statement: Record<string, unknown>[] } }>(
      resource(template, 'DataBucketPolicy'),
    );
    expect(policy.Bucket).toEqual({ Ref: 'DataBucket' });
    expect(policy.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': false } } }),
    );
  });

  it('triggers on-upload for objects created under incoming/ only', () => {
    const [onUploadId] = lambdaFor(template, 'on-upload');
    const bucket = resource(template, 'DataBucket');
    const configs = props<{
      NotificationConfiguration: { LambdaConfigurations: Record<string, unknown>[] };
    }>(bucket).NotificationConfiguration.LambdaConfigurations;
    expect(configs).toEqual([
      {
        Event: 's3:ObjectCreated:*',
        Filter: { S3Key: { Rules: [{ Name: 'prefix', Value: 'incoming/' }] } },
        Function: getAtt(onUploadId),
      },
    ]);
    // S3 validates the destination when the notification is put: the permission comes first.
    const permissions = ofType(template, 'AWS::Lambda::Permission').filter(
      ([, p]) => props(p).Principal === 's3.amazonaws.com',
    );
    expect(permissions).toHaveLength(1);
    const [permissionId, permission] = permissions[0]!;
    expect(asArray(bucket.DependsOn)).toContain(permissionId);
    const p = props<Record<string, unknown>>(permission);
    expect(p.FunctionName).toEqual(getAtt(onUploadId));
    expect(p.SourceAccount).toEqual({ Ref: 'AWS::AccountId' });
    expect(resolveValue(template, p.SourceArn)).toBe(
      `arn:aws:s3:::${resolveValue(template, { Ref: 'DataBucket' })}`,
    );
  });

  it('keeps every log group for a bounded time', () => {
    const groups = ofType(template, 'AWS::Logs::LogGroup');
    expect(groups.length).toBe(HANDLER_FILES.length + 2); // the Lambdas, the workers, the state machine
    for (const [id, g] of groups) expect(props(g).RetentionInDays, id).toBeGreaterThan(0);
  });
});
