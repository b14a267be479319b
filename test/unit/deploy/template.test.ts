import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../lib/config/config.js';
import { readResources } from '../../../local/stack/resources.js';
import { loadWorkerConfig } from '../../../worker/config.js';
import {
  ACCOUNT,
  allStatements,
  asArray,
  type CfnResource,
  extractZip,
  ofType,
  PACKAGE_DIR,
  packageOffline,
  props,
  REGION,
  ROOT,
  resolveValue,
  resource,
  roleStatements,
  STAGE,
  type Template,
  wildcardProblems,
} from '../../support/serverless-template.js';

let template: Template;

beforeAll(async () => {
  const packaged = await packageOffline();
  template = packaged.template;
  process.stderr.write(`npm run package: ${packaged.ms} ms\n`);
}, 300_000);

const SERVICE = 'geohub';
/** The handlers: every file of functions/ that exports one (deps.ts is shared wiring). */
const HANDLER_FILES = readdirSync(join(ROOT, 'functions'))
  .filter(
    (f) =>
      f.endsWith('.ts') && readFileSync(join(ROOT, 'functions', f), 'utf8').includes('export const handler'),
  )
  .map((f) => basename(f, '.ts'));

const lambdas = () => ofType(template, 'AWS::Lambda::Function');
const lambdaFor = (file: string): [string, CfnResource] => {
  const found = lambdas().filter(([, r]) => props(r).Handler === `functions/${file}.handler`);
  expect(found, `one Lambda for functions/${file}.ts`).toHaveLength(1);
  return found[0]!;
};
const getAtt = (id: string, attribute = 'Arn') => ({ 'Fn::GetAtt': [id, attribute] });

describe('npm run package (offline, no credentials)', () => {
  it('bundles every handler of functions/ into its own Lambda on Node 22', () => {
    expect(HANDLER_FILES.length).toBe(12);
    for (const file of HANDLER_FILES) {
      const [, fn] = lambdaFor(file);
      const p = props<{ Runtime: string; FunctionName: string; Code: { S3Key: string } }>(fn);
      expect(p.Runtime).toBe('nodejs22.x');
      expect(p.FunctionName).toBe(`${SERVICE}-${STAGE}-${file}`);
      expect(existsSync(join(PACKAGE_DIR, basename(p.Code.S3Key))), `${p.Code.S3Key} was built`).toBe(true);
    }
    expect(lambdas()).toHaveLength(HANDLER_FILES.length);
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
    const [onUploadId] = lambdaFor('on-upload');
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

describe('the state machine', () => {
  const localAsl = () => readFileSync(join(ROOT, 'statemachine', 'geohub.asl.json'), 'utf8');
  const machine = () => {
    const machines = ofType(template, 'AWS::StepFunctions::StateMachine');
    expect(machines).toHaveLength(1);
    return machines[0]!;
  };

  it('deploys the local ASL file; CloudFormation fills in only its function ARN placeholders', () => {
    const [, sm] = machine();
    const p = props<{ DefinitionString: unknown; DefinitionSubstitutions: Record<string, unknown> }>(sm);
    expect(typeof p.DefinitionString, 'a plain string: no Fn::Sub rewrites the definition').toBe('string');
    const deployed = p.DefinitionString as string;
    const placeholders = [...new Set([...localAsl().matchAll(/\$\{(\w+)\}/g)].map((m) => m[1]!))].sort();
    expect(placeholders.length).toBeGreaterThan(0);
    expect(Object.keys(p.DefinitionSubstitutions).sort()).toEqual(placeholders);

    // Apply the substitutions to both sides the way CloudFormation does, then compare.
    const substitute = (text: string) =>
      text.replace(/\$\{(\w+)\}/g, (_whole, name: string) => {
        const att = (p.DefinitionSubstitutions[name] as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'];
        return `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${props(resource(template, att[0])).FunctionName}`;
      });
    expect(JSON.parse(substitute(deployed))).toEqual(JSON.parse(substitute(localAsl())));
    expect(JSON.parse(deployed)).toEqual(JSON.parse(localAsl()));
  });

  it('maps each task placeholder to the Lambda of the same name', () => {
    const [, sm] = machine();
    const subs = props<{ DefinitionSubstitutions: Record<string, unknown> }>(sm).DefinitionSubstitutions;
    for (const [name, value] of Object.entries(subs)) {
      // SplitFunctionArn → functions/split.ts, CheckProgressFunctionArn → functions/check-progress.ts
      const file = name
        .replace(/FunctionArn$/, '')
        .replace(/[A-Z]/g, (c, i: number) => (i === 0 ? '' : '-') + c.toLowerCase());
      const [id] = lambdaFor(file);
      expect(value, name).toEqual(getAtt(id));
    }
  });

  it('may invoke exactly its task Lambdas and nothing else', () => {
    const [, sm] = machine();
    const p = props<{ RoleArn: { 'Fn::GetAtt': [string, string] }; DefinitionSubstitutions: object }>(sm);
    const role = resource(template, p.RoleArn['Fn::GetAtt'][0]);
    // The other statements deliver its logs and traces (operations.test.ts); none invokes anything.
    const invoking = roleStatements(role).filter((s) =>
      asArray(s.Action).some((a) => !/^(logs|xray):/.test(a)),
    );
    expect(invoking).toHaveLength(1);
    expect(invoking[0]!.Action).toBe('lambda:InvokeFunction');
    expect(invoking[0]!.Resource).toEqual(Object.values(p.DefinitionSubstitutions));
  });

  it('lets on-upload and redrive start executions (GEOHUB_STATE_MACHINE_ARN)', () => {
    const [smId] = machine();
    for (const file of ['on-upload', 'redrive']) {
      const env = props<{ Environment: { Variables: Record<string, unknown> } }>(
        lambdaFor(file)[1],
      ).Environment;
      expect(env.Variables.GEOHUB_STATE_MACHINE_ARN, file).toEqual({ Ref: smId });
    }
  });
});

describe('run control and schedules', () => {
  it('records every execution’s end on its run: failed, stopped (ABORTED) and timed-out ones end it', () => {
    const [smId] = ofType(template, 'AWS::StepFunctions::StateMachine')[0]!;
    const [onStatusId] = lambdaFor('on-execution-status');
    const rules = ofType(template, 'AWS::Events::Rule').filter(([, r]) =>
      JSON.stringify(props(r).EventPattern ?? {}).includes('aws.states'),
    );
    expect(rules).toHaveLength(1);
    const rule = props<{ EventPattern: unknown; Targets: { Arn: unknown }[] }>(rules[0]![1]);
    expect(rule.EventPattern).toEqual({
      source: ['aws.states'],
      'detail-type': ['Step Functions Execution Status Change'],
      detail: { status: ['SUCCEEDED', 'FAILED', 'ABORTED', 'TIMED_OUT'], stateMachineArn: [{ Ref: smId }] },
    });
    expect(rule.Targets.map((t) => t.Arn)).toEqual([getAtt(onStatusId)]);
  });

  it('runs the reaper every 5 minutes', () => {
    const [reaperId] = lambdaFor('reaper');
    const schedules = ofType(template, 'AWS::Events::Rule').filter(([, r]) =>
      JSON.stringify(props(r).Targets).includes(reaperId),
    );
    expect(schedules).toHaveLength(1);
    const rule = props<{ ScheduleExpression: string; Targets: { Arn: unknown }[] }>(schedules[0]![1]);
    expect(rule.ScheduleExpression).toBe('rate(5 minutes)');
    expect(rule.Targets.map((t) => t.Arn)).toEqual([getAtt(reaperId)]);
  });

  it('gives every Lambda the configuration it parses at start', () => {
    for (const file of HANDLER_FILES) {
      const vars = props<{ Environment: { Variables: Record<string, unknown> } }>(lambdaFor(file)[1])
        .Environment.Variables;
      const env = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, resolveValue(template, v)]));
      const config = loadConfig(env);
      expect(config.bucket, file).toBe(`${SERVICE}-${STAGE}-${ACCOUNT}-data`);
      expect(config.endpoints, file).toEqual({});
    }
  });
});

describe('workers on Fargate Spot', () => {
  /** Capacity provider → weight (a --param override arrives as a string). */
  const weights = (strategy: Record<string, unknown>[]) =>
    Object.fromEntries(strategy.map((s) => [s.CapacityProvider, Number(s.Weight)]));
  const container = () => {
    const defs = ofType(template, 'AWS::ECS::TaskDefinition');
    expect(defs).toHaveLength(1);
    const p = props<{ ContainerDefinitions: Record<string, unknown>[] } & Record<string, unknown>>(
      defs[0]![1],
    );
    expect(p.ContainerDefinitions).toHaveLength(1);
    return { task: p, worker: p.ContainerDefinitions[0]! };
  };

  it('has a cluster with FARGATE_SPOT as the default capacity and FARGATE as the fallback', () => {
    const clusters = ofType(template, 'AWS::ECS::Cluster');
    expect(clusters).toHaveLength(1);
    const c = props<{
      CapacityProviders: string[];
      DefaultCapacityProviderStrategy: Record<string, unknown>[];
    }>(clusters[0]![1]);
    expect(c.CapacityProviders).toEqual(['FARGATE_SPOT', 'FARGATE']);
    expect(weights(c.DefaultCapacityProviderStrategy)).toEqual({ FARGATE_SPOT: 1, FARGATE: 0 });
  });

  it('runs the worker container with 2 minutes to stop and the image’s own init and entrypoint', () => {
    const { task, worker } = container();
    expect(task.Cpu).toBe('1024');
    expect(task.Memory).toBe('2048');
    expect(task.RequiresCompatibilities).toEqual(['FARGATE']);
    expect(worker.StopTimeout).toBe(120);
    // The image's ENTRYPOINT starts tini as PID 1 (worker/Dockerfile): no second init from ECS,
    // no override of the exec-form ENTRYPOINT, and no shell.
    expect(worker.LinuxParameters).toBeUndefined();
    expect(worker.EntryPoint).toBeUndefined();
    expect(worker.Command).toBeUndefined();
    const log = worker.LogConfiguration as { LogDriver: string; Options: Record<string, unknown> };
    expect(log.LogDriver).toBe('awslogs');
    const group = resource(template, (log.Options['awslogs-group'] as { Ref: string }).Ref);
    expect(props(group).RetentionInDays).toBeGreaterThan(0);
  });

  it('gives the worker a configuration that both config parsers accept, within the stop timeout', () => {
    const { worker } = container();
    const env = Object.fromEntries(
      (worker.Environment as { Name: string; Value: unknown }[]).map((e) => [
        e.Name,
        resolveValue(template, e.Value),
      ]),
    );
    for (const name of Object.keys(env)) expect(name).toMatch(/^GEOHUB_/);
    const config = loadConfig(env);
    expect(config.stateMachineArn).toBeUndefined();
    const wc = loadWorkerConfig(env);
    expect(wc.stopGraceMs).toBeLessThan((worker.StopTimeout as number) * 1000);
    expect(wc.toolTimeoutMs + wc.killGraceMs).toBeLessThanOrEqual(wc.stopGraceMs);
  });

  it('runs the service on the capacity provider strategy, scaled on the queue from zero', () => {
    const services = ofType(template, 'AWS::ECS::Service');
    expect(services).toHaveLength(1);
    const [serviceId, service] = services[0]!;
    const s = props<Record<string, unknown>>(service);
    expect(s.LaunchType).toBeUndefined();
    expect(weights(s.CapacityProviderStrategy as Record<string, unknown>[])).toEqual({
      FARGATE_SPOT: 1,
      FARGATE: 0,
    });
    // 0 on the first deploy only; afterwards left out, so a deploy keeps the running count.
    expect(s.DesiredCount).toEqual({ 'Fn::If': ['IsFirstDeploy', 0, { Ref: 'AWS::NoValue' }] });

    const targets = ofType(template, 'AWS::ApplicationAutoScaling::ScalableTarget');
    expect(targets).toHaveLength(1);
    const [targetId, target] = targets[0]!;
    const t = props<Record<string, unknown>>(target);
    expect(t.MinCapacity).toBe(0);
    expect(t.MaxCapacity).toBeGreaterThan(0);
    expect(t.ScalableDimension).toBe('ecs:service:DesiredCount');
    expect(JSON.stringify(t.ResourceId)).toContain(serviceId);

    const policies = ofType(template, 'AWS::ApplicationAutoScaling::ScalingPolicy');
    for (const [, p] of policies) expect(props(p).ScalingTargetId).toEqual({ Ref: targetId });
    // The scaling alarms (the others notify the alarm topic: operations.test.ts) watch the work queue.
    const alarms = ofType(template, 'AWS::CloudWatch::Alarm').filter(([, a]) =>
      asArray(props(a).AlarmActions as { Ref: string }[]).some((x) => policies.some(([id]) => id === x.Ref)),
    );
    const actions = alarms.flatMap(([, a]) => asArray(props(a).AlarmActions as { Ref: string }[]));
    expect(actions.map((a) => a.Ref).sort()).toEqual(policies.map(([id]) => id).sort());
    for (const [id, a] of alarms) expect(JSON.stringify(props(a)), id).toContain('WorkQueue');
  });
});

describe('least privilege', () => {
  const LOGS = ['logs:CreateLogStream', 'logs:PutLogEvents'];
  /** What each function calls, and nothing more (see lib/ and functions/). */
  const EXPECTED: Record<string, string[]> = {
    'on-upload': [
      ...LOGS,
      's3:GetObject',
      's3:ListBucket',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'states:StartExecution',
    ],
    'hand-over': [
      ...LOGS,
      'dynamodb:Query',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'states:StartExecution',
    ],
    split: [
      ...LOGS,
      's3:GetObject',
      's3:PutObject',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ],
    enqueue: [...LOGS, 's3:GetObject', 'sqs:SendMessage'],
    'check-progress': [
      ...LOGS,
      'dynamodb:Query',
      'dynamodb:UpdateItem',
      'sqs:GetQueueAttributes',
      'sqs:SendMessage',
    ],
    drain: [...LOGS, 'dynamodb:Query', 'dynamodb:UpdateItem'],
    finalize: [
      ...LOGS,
      'dynamodb:Query',
      'dynamodb:UpdateItem',
      's3:GetObject',
      's3:PutObject',
      's3:AbortMultipartUpload',
    ],
    'mark-failed': [...LOGS, 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem'],
    'on-execution-status': [...LOGS, 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    reaper: [...LOGS, 'dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:UpdateItem'],
    capacity: [...LOGS, 'dynamodb:Query', 'ecs:DescribeServices', 'ecs:UpdateService'],
    redrive: [
      ...LOGS,
      'dynamodb:Query',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'sqs:SendMessage',
      'sqs:ReceiveMessage',
      'sqs:ChangeMessageVisibility',
      'sqs:DeleteMessage',
      'states:StartExecution',
      'states:DescribeExecution',
    ],
  };

  it('allows no "*" action anywhere, and no wildcard action on "*" resources', () => {
    // Roles' inline policies, their trust policies, bucket policies: every document, wherever it is.
    expect(allStatements(template.Resources).length).toBeGreaterThan(40);
    expect(wildcardProblems(template.Resources)).toEqual([]);
  });

  it('(the check above finds statements wherever they are nested)', () => {
    const admin = { Effect: 'Allow', Action: '*', Resource: '*' };
    const s3All = { Effect: 'Allow', Action: ['s3:GetObject', 's3:*'], Resource: ['*'] };
    const denyAll = { Effect: 'Deny', Action: ['*'], Resource: '*' };
    const fine = { Effect: 'Allow', Action: 'ecr:GetAuthorizationToken', Resource: '*' };
    const problems = wildcardProblems({
      Role: {
        Type: 'AWS::IAM::Role',
        Properties: { Policies: [{ PolicyDocument: { Statement: [fine, admin] } }] },
      },
      Policy: { Type: 'AWS::IAM::ManagedPolicy', Properties: { PolicyDocument: { Statement: s3All } } },
      Other: { Type: 'AWS::SQS::QueuePolicy', Properties: { PolicyDocument: { Statement: [denyAll] } } },
    });
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/Role.*Statement\[1\]: Action "\*"/);
  });

  it('puts every permission in the template: no managed policy is attached', () => {
    expect(JSON.stringify(template)).not.toContain('ManagedPolicyArns');
    expect(ofType(template, 'AWS::IAM::ManagedPolicy')).toHaveLength(0);
  });

  /** Actions AWS defines no resource type for: "*" is the only Resource they take. */
  const NO_RESOURCE_TYPE = [
    'ecr:GetAuthorizationToken',
    // Step Functions' log delivery (the log group is named in the state machine's LoggingConfiguration).
    'logs:CreateLogDelivery',
    'logs:GetLogDelivery',
    'logs:UpdateLogDelivery',
    'logs:DeleteLogDelivery',
    'logs:ListLogDeliveries',
    'logs:PutResourcePolicy',
    'logs:DescribeResourcePolicies',
    'logs:DescribeLogGroups',
    'xray:PutTraceSegments',
    'xray:PutTelemetryRecords',
    'xray:GetSamplingRules',
    'xray:GetSamplingTargets',
  ];

  it('scopes every Allow to this stack’s resources; "*" only where AWS has no resource type', () => {
    const roles = ofType(template, 'AWS::IAM::Role');
    for (const [id, role] of roles) {
      for (const s of roleStatements(role)) {
        for (const r of asArray(s.Resource as unknown)) {
          if (r === '*') {
            for (const action of asArray(s.Action))
              expect(NO_RESOURCE_TYPE, `${id}: ${action} on "*"`).toContain(action);
          } else
            expect(typeof r, `${id}: ${JSON.stringify(r)} must reference a stack resource`).toBe('object');
        }
      }
    }
  });

  it('gives each function a role of its own with only the actions it calls', () => {
    const roleIds = new Set<string>();
    for (const file of HANDLER_FILES) {
      const [, fn] = lambdaFor(file);
      const roleId = (props(fn).Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      roleIds.add(roleId);
      const statements = roleStatements(resource(template, roleId));
      const actions = statements.flatMap((s) => asArray(s.Action));
      expect(new Set(actions), file).toEqual(new Set(EXPECTED[file]));
      // Its logs go to its own log group only.
      const logs = statements.filter((s) => asArray(s.Action).includes('logs:PutLogEvents'));
      expect(logs).toHaveLength(1);
      expect(resolveValue(template, logs[0]!.Resource)).toBe(
        `arn:aws:logs:${REGION}:${ACCOUNT}:log-group:/aws/lambda/${SERVICE}-${STAGE}-${file}:*`,
      );
      const trust = JSON.stringify(props(resource(template, roleId)).AssumeRolePolicyDocument);
      expect(trust).toContain('lambda.amazonaws.com');
    }
    expect(roleIds.size).toBe(HANDLER_FILES.length);
    expect(template.Resources.IamRoleLambdaExecution).toBeUndefined();
  });

  it('check-progress reads the ledger and only the two queues’ attributes', () => {
    const [, fn] = lambdaFor('check-progress');
    const role = resource(template, (props(fn).Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0]);
    const sqs = roleStatements(role).find((s) => s.Action === 'sqs:GetQueueAttributes');
    expect(sqs?.Resource).toEqual([getAtt('WorkQueue'), getAtt('DeadLetterQueue')]);
    // It re-sends stale stops to the work queue only, never to the dead-letter queue.
    const send = roleStatements(role).find((s) => s.Action === 'sqs:SendMessage');
    expect(send?.Resource).toEqual(getAtt('WorkQueue'));
    const ddb = roleStatements(role).find((s) => asArray(s.Action).includes('dynamodb:Query'));
    expect(ddb?.Resource).toEqual(getAtt('LedgerTable'));
  });

  it('lets the workers claim, upload and delete messages, and read only incoming sources', () => {
    const task = props<{ TaskRoleArn: { 'Fn::GetAtt': [string, string] } }>(
      ofType(template, 'AWS::ECS::TaskDefinition')[0]![1],
    );
    const statements = roleStatements(resource(template, task.TaskRoleArn['Fn::GetAtt'][0]));
    const actions = new Set(statements.flatMap((s) => asArray(s.Action)));
    expect(actions).toEqual(
      new Set([
        'dynamodb:GetItem',
        'dynamodb:Query',
        'dynamodb:UpdateItem',
        'sqs:ReceiveMessage',
        'sqs:ChangeMessageVisibility',
        'sqs:DeleteMessage',
        'sqs:SendMessage',
        's3:GetObject',
        's3:ListBucket',
        's3:PutObject',
      ]),
    );
    const get = statements.find((s) => s.Action === 's3:GetObject');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a CloudFormation Fn::Sub string
    expect(get?.Resource).toEqual({ 'Fn::Sub': '${DataBucket.Arn}/incoming/*' });
    const put = statements.find((s) => s.Action === 's3:PutObject');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a CloudFormation Fn::Sub string
    expect(put?.Resource).toEqual({ 'Fn::Sub': '${DataBucket.Arn}/tiles/*' });
  });
});
