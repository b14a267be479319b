import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  asArray,
  ofType,
  PACKAGE_DIR,
  packageOffline,
  props,
  ROOT,
  resource,
  roleStatements,
  STAGE,
  type Template,
} from '../../support/serverless-template.js';

// Operating geohub on AWS (issue 16): what the packaged template does for storage, rollouts,
// alarms, state machine observability and cost allocation.
let template: Template;
beforeAll(async () => {
  template = (await packageOffline()).template;
}, 300_000);

type Props = Record<string, unknown>;
const only = (type: string): [string, Props] => {
  const found = ofType(template, type);
  expect(found, type).toHaveLength(1);
  return [found[0]![0], props<Props>(found[0]![1])];
};
/** What osls resolved from serverless.yml (its provider settings and the default parameters). */
const state = () =>
  JSON.parse(readFileSync(join(PACKAGE_DIR, 'serverless-state.json'), 'utf8')) as {
    service: { provider: Record<string, unknown>; initialServerlessConfig: { params: { default: Props } } };
  };

describe('worker task storage', () => {
  it('sizes the task’s ephemeral storage from a parameter, above Fargate’s 20 GiB default, within its 200', () => {
    const [, task] = only('AWS::ECS::TaskDefinition');
    const size = (task.EphemeralStorage as { SizeInGiB: number }).SizeInGiB;
    expect(size).toBe(
      Number(state().service.initialServerlessConfig.params.default.workerEphemeralStorageGiB),
    );
    expect(size).toBeGreaterThan(20);
    expect(size).toBeLessThanOrEqual(200);
    const yml = readFileSync(join(ROOT, 'serverless.yml'), 'utf8');
    expect(yml).toMatch(/SizeInGiB: \$\{param:workerEphemeralStorageGiB\}/);
  });
});

describe('service updates keep the running workers', () => {
  it('sets no desired count after the first deploy, so an update leaves the scaled count alone', () => {
    const [, service] = only('AWS::ECS::Service');
    expect(service.DesiredCount).toEqual({ 'Fn::If': ['IsFirstDeploy', 0, { Ref: 'AWS::NoValue' }] });
    const conditions = (template as unknown as { Conditions: Record<string, unknown> }).Conditions;
    // With the default parameters (every deploy but the first) the condition is false.
    expect(conditions.IsFirstDeploy).toEqual({ 'Fn::Equals': ['false', 'true'] });
  });

  it('rolls a new task definition out beside the running tasks, never below the running count', () => {
    const [, service] = only('AWS::ECS::Service');
    const deployment = service.DeploymentConfiguration as Props;
    expect(deployment.MinimumHealthyPercent).toBe(100);
    expect(deployment.MaximumPercent).toBeGreaterThan(100);
    expect(deployment.DeploymentCircuitBreaker).toEqual({ Enable: true, Rollback: true });
  });
});

describe('alarms to one SNS topic', () => {
  const topicId = () => only('AWS::SNS::Topic')[0];
  const notifying = () =>
    ofType(template, 'AWS::CloudWatch::Alarm').filter(([, a]) =>
      asArray(props<Props>(a).AlarmActions as { Ref: string }[]).some((x) => x.Ref === topicId()),
    );
  const metricOf = (a: Props) => `${a.Namespace}/${a.MetricName}`;

  it('alarms when the dead-letter queue is not empty', () => {
    const dlq = notifying().find(
      ([, a]) => metricOf(props(a)) === 'AWS/SQS/ApproximateNumberOfMessagesVisible',
    );
    expect(dlq).toBeDefined();
    const a = props<Props>(dlq![1]);
    expect(JSON.stringify(a.Dimensions)).toContain('DeadLetterQueue');
    expect(a).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
  });

  it('alarms when an execution fails or times out', () => {
    const [machineId] = only('AWS::StepFunctions::StateMachine');
    for (const metric of ['ExecutionsFailed', 'ExecutionsTimedOut']) {
      const alarm = notifying().find(([, a]) => metricOf(props(a)) === `AWS/States/${metric}`);
      expect(alarm, metric).toBeDefined();
      const a = props<Props>(alarm![1]);
      expect(a.Dimensions).toEqual([{ Name: 'StateMachineArn', Value: { Ref: machineId } }]);
      expect(a).toMatchObject({ Statistic: 'Sum', Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
    }
  });

  it('notifies when a worker task stops with an exit code other than 0 and 75', () => {
    const rules = ofType(template, 'AWS::Events::Rule').filter(([, r]) =>
      JSON.stringify(props(r).EventPattern ?? {}).includes('ECS Task State Change'),
    );
    expect(rules).toHaveLength(1);
    const rule = props<{ EventPattern: Props; Targets: { Arn: unknown }[] }>(rules[0]![1]);
    expect(rule.EventPattern).toMatchObject({
      source: ['aws.ecs'],
      detail: {
        clusterArn: [{ 'Fn::GetAtt': [only('AWS::ECS::Cluster')[0], 'Arn'] }],
        lastStatus: ['STOPPED'],
        containers: { name: ['worker'], exitCode: [{ 'anything-but': [0, 75] }] },
      },
    });
    expect(rule.Targets.map((t) => t.Arn)).toEqual([{ Ref: topicId() }]);
  });

  it('lets CloudWatch and EventBridge of this account publish to the topic, and only them', () => {
    const [, policy] = only('AWS::SNS::TopicPolicy');
    expect(policy.Topics).toEqual([{ Ref: topicId() }]);
    const statements = (policy.PolicyDocument as { Statement: Props[] }).Statement;
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({
      Effect: 'Allow',
      Principal: { Service: ['cloudwatch.amazonaws.com', 'events.amazonaws.com'] },
      Action: 'sns:Publish',
      Resource: { Ref: topicId() },
      Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
    });
    // An e-mail subscription only when an address is given.
    const [, sub] = Object.entries(template.Resources).find(([, r]) => r.Type === 'AWS::SNS::Subscription')!;
    expect((sub as unknown as { Condition: string }).Condition).toBe('HasAlarmEmail');
  });
});

describe('state machine logging and tracing', () => {
  it('logs errors with execution data to a bounded log group, and traces with X-Ray', () => {
    const [, machine] = only('AWS::StepFunctions::StateMachine');
    const logging = machine.LoggingConfiguration as {
      Level: string;
      IncludeExecutionData: boolean;
      Destinations: { CloudWatchLogsLogGroup: { LogGroupArn: { 'Fn::GetAtt': [string, string] } } }[];
    };
    expect(logging.Level).toBe('ERROR');
    expect(logging.IncludeExecutionData).toBe(true);
    const groupId = logging.Destinations[0]!.CloudWatchLogsLogGroup.LogGroupArn['Fn::GetAtt'][0];
    const group = props<Props>(resource(template, groupId));
    expect(group.LogGroupName).toBe(`/aws/vendedlogs/states/geohub-${STAGE}`);
    expect(group.RetentionInDays).toBeGreaterThan(0);
    expect(machine.TracingConfiguration).toEqual({ Enabled: true });
  });

  it('lets the state machine’s role deliver those logs and traces', () => {
    const [, machine] = only('AWS::StepFunctions::StateMachine');
    const roleId = (machine.RoleArn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const actions = roleStatements(resource(template, roleId)).flatMap((s) => asArray(s.Action));
    for (const action of ['logs:CreateLogDelivery', 'logs:PutResourcePolicy', 'xray:PutTraceSegments'])
      expect(actions).toContain(action);
  });
});

describe('cost allocation per stage', () => {
  const TAGS = ['Project', 'Stage', 'CostCenter'];

  it('tags the whole stack (CloudFormation passes stack tags to every resource that takes them)', () => {
    const stackTags = state().service.provider.stackTags as Record<string, string>;
    expect(Object.keys(stackTags)).toEqual(TAGS);
    expect(stackTags.Stage).toBe(STAGE);
  });

  it('tags the worker service and passes its tags to the tasks Fargate bills', () => {
    const [, service] = only('AWS::ECS::Service');
    expect(service.PropagateTags).toBe('SERVICE');
    const tags = Object.fromEntries(
      (service.Tags as { Key: string; Value: string }[]).map((t) => [t.Key, t.Value]),
    );
    expect(Object.keys(tags)).toEqual(TAGS);
    expect(tags.Stage).toBe(STAGE);
  });

  it('tags every Lambda and the state machine with the stage', () => {
    const tagged = [
      ...ofType(template, 'AWS::Lambda::Function'),
      ...ofType(template, 'AWS::StepFunctions::StateMachine'),
    ];
    expect(tagged.length).toBeGreaterThan(1);
    for (const [id, r] of tagged) {
      const tags = props<{ Tags?: { Key: string; Value: string }[] }>(r).Tags ?? [];
      expect(tags.find((t) => t.Key === 'Stage')?.Value, id).toBe(STAGE);
    }
  });
});

describe('spot → on-demand fallback on AWS', () => {
  it('checks the capacity every minute, against the worker service it may read and update, and nothing else', () => {
    const [fnId, fn] = ofType(template, 'AWS::Lambda::Function').find(
      ([, r]) => props(r).Handler === 'functions/capacity.handler',
    )!;
    const vars = props<{ Environment: { Variables: Props } }>(fn).Environment.Variables;
    const [serviceId, service] = only('AWS::ECS::Service');
    expect(vars.GEOHUB_WORKER_SERVICE).toBe(service.ServiceName);
    expect(vars.GEOHUB_WORKER_CLUSTER).toEqual({ Ref: only('AWS::ECS::Cluster')[0] });
    const schedule = ofType(template, 'AWS::Events::Rule').find(([, r]) =>
      JSON.stringify(props(r).Targets).includes(fnId),
    );
    expect(props(schedule![1]).ScheduleExpression).toBe('rate(1 minute)');
    const roleId = (props(fn).Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const ecs = roleStatements(resource(template, roleId)).filter((s) =>
      asArray(s.Action).some((a) => a.startsWith('ecs:')),
    );
    expect(ecs).toEqual([
      {
        Effect: 'Allow',
        Action: ['ecs:DescribeServices', 'ecs:UpdateService'],
        Resource: { Ref: serviceId },
      },
    ]);
  });
});
