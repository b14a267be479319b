import type { ArnScope } from './arn-templates.js';
import { PolicySourceError } from './errors.js';
import { type ResourceValue, resolveIntrinsics } from './intrinsics.js';
import { stackNameOf } from './operator-policy.js';
import { type PackageVariables, resolveServerlessVariables } from './serverless-variables.js';

interface Doc {
  functions?: Record<string, { name?: unknown }>;
  stepFunctions?: { stateMachines?: Record<string, { id?: string; name?: unknown }> };
  resources?: { Resources?: Record<string, { Type: string; Properties?: Record<string, unknown> }> };
}

const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** CloudFormation's pseudo parameters on the stack of this scope and stage. */
export function pseudoParameters(scope: ArnScope, vars: PackageVariables): Readonly<Record<string, string>> {
  return {
    'AWS::Partition': scope.partition,
    'AWS::Region': scope.region,
    'AWS::AccountId': scope.account,
    'AWS::URLSuffix': 'amazonaws.com',
    'AWS::StackName': stackNameOf(vars.stage),
  };
}

/**
 * The values CloudFormation gives the template's resources (Ref and the attributes policies
 * use), for a stack of this account, region and stage: the local stack's names are the
 * template's names (local/stack/resources.ts), so its ARNs are the ones AWS would have.
 */
export function templateResourceValues(doc: unknown, vars: PackageVariables, scope: ArnScope): ResourceValue {
  const d = resolveServerlessVariables(doc, doc, vars) as Doc;
  const { partition: p, region: r, account: a } = scope;
  const pseudo = pseudoParameters(scope, vars);
  const resolved = (v: unknown): string => String(resolveIntrinsics(v, value, pseudo));

  function value(logicalId: string, attribute?: string): string {
    // serverless names a function's resource <Key>LambdaFunction.
    for (const [key, fn] of Object.entries(d.functions ?? {})) {
      if (`${upperFirst(key)}LambdaFunction` !== logicalId) continue;
      const name = resolved(fn.name);
      return attribute === 'Arn' ? `arn:${p}:lambda:${r}:${a}:function:${name}` : name;
    }
    for (const machine of Object.values(d.stepFunctions?.stateMachines ?? {})) {
      if (machine.id !== logicalId) continue;
      const name = resolved(machine.name);
      return attribute === 'Name' ? name : `arn:${p}:states:${r}:${a}:stateMachine:${name}`;
    }
    const resource = d.resources?.Resources?.[logicalId];
    if (!resource) throw new PolicySourceError(`no resource ${logicalId} in the template`);
    const prop = (name: string) => resolved(resource.Properties?.[name]);
    switch (`${resource.Type}.${attribute ?? 'Ref'}`) {
      case 'AWS::S3::Bucket.Ref':
        return prop('BucketName');
      case 'AWS::S3::Bucket.Arn':
        return `arn:${p}:s3:::${prop('BucketName')}`;
      case 'AWS::DynamoDB::Table.Ref':
        return prop('TableName');
      case 'AWS::DynamoDB::Table.Arn':
        return `arn:${p}:dynamodb:${r}:${a}:table/${prop('TableName')}`;
      case 'AWS::SQS::Queue.Ref':
        return `https://sqs.${r}.amazonaws.com/${a}/${prop('QueueName')}`;
      case 'AWS::SQS::Queue.QueueName':
        return prop('QueueName');
      case 'AWS::SQS::Queue.Arn':
        return `arn:${p}:sqs:${r}:${a}:${prop('QueueName')}`;
      case 'AWS::ECS::Cluster.Ref':
        return prop('ClusterName');
      case 'AWS::ECS::Cluster.Arn':
        return `arn:${p}:ecs:${r}:${a}:cluster/${prop('ClusterName')}`;
      case 'AWS::ECS::Service.Ref':
        return `arn:${p}:ecs:${r}:${a}:service/${prop('Cluster')}/${prop('ServiceName')}`;
      case 'AWS::ECS::Service.Name':
        return prop('ServiceName');
      case 'AWS::Logs::LogGroup.Arn':
        return `arn:${p}:logs:${r}:${a}:log-group:${prop('LogGroupName')}:*`;
      case 'AWS::ECR::Repository.Ref':
        return prop('RepositoryName');
      case 'AWS::ECR::Repository.Arn':
        return `arn:${p}:ecr:${r}:${a}:repository/${prop('RepositoryName')}`;
      case 'AWS::ECR::Repository.RepositoryUri':
        return `${a}.dkr.ecr.${r}.amazonaws.com/${prop('RepositoryName')}`;
      case 'AWS::IAM::ManagedPolicy.Ref':
        return `arn:${p}:iam::${a}:policy/${prop('ManagedPolicyName')}`;
      case 'AWS::SNS::Topic.Ref':
        return `arn:${p}:sns:${r}:${a}:${prop('TopicName')}`;
    }
    throw new PolicySourceError(
      `${logicalId}.${attribute ?? 'Ref'} (${resource.Type}) is not resolved locally`,
    );
  }
  return value;
}
