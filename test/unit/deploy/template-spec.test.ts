import { describe, expect, it } from 'vitest';
import type { CfnTemplate } from '../../support/cfn-spec/check-references.js';
import { checkTemplate } from '../../support/cfn-spec/check-template.js';
import { lambdas, packagedTemplate } from '../../support/serverless-template.js';

// Packaged once per test run (under a lock shared by the deploy test files), before collection.
const template = (await packagedTemplate()) as unknown as CfnTemplate;

// biome-ignore lint/suspicious/noExplicitAny: a template copy is edited freely, by path
type Mutable = any;

/** A deep copy of the packaged template with one change made to it. */
function copyWith(change: (t: { Resources: Record<string, Mutable> }) => void): CfnTemplate {
  const copy = structuredClone(template) as unknown as { Resources: Record<string, Mutable> };
  change(copy);
  return copy as unknown as CfnTemplate;
}

const firstLambda = () => lambdas(template as never)[0]![0];

describe('the packaged template against the CloudFormation resource specification', () => {
  it('passes: every type and property known, required ones present, types right, references resolve, no cycle', () => {
    expect(checkTemplate(template)).toEqual([]);
    // The check saw the whole stack, not an empty one.
    expect(Object.keys(template.Resources).length).toBeGreaterThan(70);
  });

  it.each<[string, (t: { Resources: Record<string, Mutable> }) => void, RegExp]>([
    [
      'a primitive property of the wrong type',
      (t) => {
        t.Resources.WorkQueue.Properties.VisibilityTimeout = 'a minute';
      },
      /WorkQueue\.Properties\.VisibilityTimeout: "a minute" is not an integer/,
    ],
    [
      'a nested property of the wrong type',
      (t) => {
        t.Resources.LedgerTable.Properties.PointInTimeRecoverySpecification = {
          PointInTimeRecoveryEnabled: { yes: 1 },
        };
      },
      /PointInTimeRecoverySpecification\.PointInTimeRecoveryEnabled: .* is not a boolean/,
    ],
    [
      'a list where the spec wants a string',
      (t) => {
        t.Resources.WorkQueue.Properties.QueueName = ['geohub-ci-work'];
      },
      /WorkQueue\.Properties\.QueueName: .* is not a string/,
    ],
    [
      'an Fn::Join (a string) where the spec wants a list',
      (t) => {
        t.Resources[firstLambda()].Properties.Architectures = { 'Fn::Join': ['', ['arm64']] };
      },
      /Properties\.Architectures: Fn::Join gives a string, the spec wants array/,
    ],
    [
      'an unknown property',
      (t) => {
        t.Resources.WorkQueue.Properties.Colour = 'red';
      },
      /WorkQueue\.Properties: unknown property Colour/,
    ],
    [
      'a missing required property',
      (t) => {
        delete t.Resources.LedgerTable.Properties.KeySchema;
      },
      /LedgerTable\.Properties: required property KeySchema is missing/,
    ],
    [
      'an unknown resource type',
      (t) => {
        t.Resources.WorkQueue.Type = 'AWS::SQS::Queues';
      },
      /unknown resource type AWS::SQS::Queues/,
    ],
    [
      'a dangling Ref',
      (t) => {
        t.Resources[firstLambda()].Properties.Role = { Ref: 'NoSuchRole' };
      },
      /Ref NoSuchRole names no resource, parameter or pseudo parameter/,
    ],
    [
      'a dangling reference in an Fn::Sub',
      (t) => {
        t.Resources[firstLambda()].Properties.Description = {
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a CloudFormation Fn::Sub string
          'Fn::Sub': '${NoSuchQueue.Arn} in ${AWS::Region}',
        };
      },
      /GetAtt NoSuchQueue\.Arn: no resource NoSuchQueue/,
    ],
    [
      'a GetAtt of an attribute the type does not have',
      (t) => {
        t.Resources.WorkQueue.Properties.RedrivePolicy.deadLetterTargetArn = {
          'Fn::GetAtt': ['DeadLetterQueue', 'Url'],
        };
      },
      /GetAtt DeadLetterQueue\.Url: AWS::SQS::Queue has no attribute Url/,
    ],
    [
      'a DependsOn naming no resource',
      (t) => {
        t.Resources.WorkQueue.DependsOn = ['NoSuchThing'];
      },
      /WorkQueue\.DependsOn: no resource NoSuchThing/,
    ],
    [
      'a dependency cycle (a DependsOn against a GetAtt)',
      (t) => {
        t.Resources.DeadLetterQueue.DependsOn = 'WorkQueue';
      },
      /circular dependency: (WorkQueue → DeadLetterQueue → WorkQueue|DeadLetterQueue → WorkQueue → DeadLetterQueue)/,
    ],
  ])('catches %s in a copy', (_what, change, expected) => {
    const problems = checkTemplate(copyWith(change));
    expect(
      problems.some((p) => expected.test(p)),
      problems.join('\n'),
    ).toBe(true);
  });
});
