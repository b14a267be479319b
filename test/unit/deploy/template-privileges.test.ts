import { describe, expect, it } from 'vitest';
import {
  ACCOUNT,
  allStatements,
  asArray,
  getAtt,
  HANDLER_FILES,
  lambdaFor,
  ofType,
  packagedTemplate,
  props,
  REGION,
  resolveValue,
  resource,
  roleStatements,
  SERVICE,
  STAGE,
  wildcardProblems,
} from '../../support/serverless-template.js';

// Packaged once per test run (under a lock shared by the deploy test files), before collection.
const template = await packagedTemplate();

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
      // Every source is read by its version id (the bucket is versioned).
      's3:GetObjectVersion',
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
    reaper: [
      ...LOGS,
      'dynamodb:Query',
      'dynamodb:GetItem',
      'dynamodb:UpdateItem',
      'dynamodb:PutItem',
      'states:DescribeExecution',
    ],
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

  it('puts every permission in the template: no managed policy is attached to a role', () => {
    expect(JSON.stringify(template)).not.toContain('ManagedPolicyArns');
    // The one managed policy is the operators' (docs/deploy.md), for an administrator to attach
    // to people: the stack attaches it to no role, user or group of its own.
    const managed = ofType(template, 'AWS::IAM::ManagedPolicy');
    expect(managed.map(([id]) => id)).toEqual(['OperatorPolicy']);
    for (const key of ['Roles', 'Users', 'Groups']) expect(managed[0]![1].Properties).not.toHaveProperty(key);
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
      const [, fn] = lambdaFor(template, file);
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
    const [, fn] = lambdaFor(template, 'check-progress');
    const role = resource(template, (props(fn).Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0]);
    const sqs = roleStatements(role).find((s) => s.Action === 'sqs:GetQueueAttributes');
    expect(sqs?.Resource).toEqual([getAtt('WorkQueue'), getAtt('DeadLetterQueue')]);
    // It re-sends stale stops to the work queue only, never to the dead-letter queue.
    const send = roleStatements(role).find((s) => s.Action === 'sqs:SendMessage');
    expect(send?.Resource).toEqual(getAtt('WorkQueue'));
    const ddb = roleStatements(role).find((s) => asArray(s.Action).includes('dynamodb:Query'));
    expect(ddb?.Resource).toEqual(getAtt('LedgerTable'));
  });

  it("lets the workers claim, upload and delete messages, and read only sources, a collection's members and its member list, a pyramid's levels and tiles", () => {
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
        'dynamodb:BatchGetItem',
        'sqs:ReceiveMessage',
        'sqs:ChangeMessageVisibility',
        'sqs:DeleteMessage',
        'sqs:SendMessage',
        's3:GetObject',
        's3:GetObjectVersion',
        's3:ListBucket',
        's3:PutObject',
      ]),
    );
    const reads = statements
      .filter((s) => asArray(s.Action).includes('s3:GetObject'))
      .flatMap((s) => asArray(s.Resource).map((r) => (r as { 'Fn::Sub': string })['Fn::Sub']));
    const sub = (path: string) => `\${DataBucket.Arn}/${path}`;
    expect(reads.sort()).toEqual([
      sub('collections/*'),
      sub('incoming/*'),
      sub('runs/*/manifest-levels-*'),
      sub('runs/*/members.json'),
      sub('tiles/*'),
    ]);
    const put = statements.find((s) => s.Action === 's3:PutObject');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a CloudFormation Fn::Sub string
    expect(put?.Resource).toEqual({ 'Fn::Sub': '${DataBucket.Arn}/tiles/*' });
  });
});
