import { describe, expect, it } from 'vitest';
import { OPERATOR_POLICY, operatorStatements } from '../../../../local/iam/operator-policy.js';
import { templateRoles } from '../../../../local/iam/template-roles.js';
import { readServerlessDocument } from '../../../../local/stack/serverless-document.js';
import {
  HANDLER_FILES,
  ofType,
  packagedTemplate,
  REGION,
  STAGE,
} from '../../../support/serverless-template.js';

// Packaged once per test run (under a lock shared by the deploy test files), before collection.
const template = await packagedTemplate();
const roles = templateRoles(readServerlessDocument(), { stage: STAGE, region: REGION });

describe('the roles the local stack enforces', () => {
  it('are the packaged template’s roles, policy for policy (serverless variables resolved as osls does)', () => {
    const packaged = ofType(template, 'AWS::IAM::Role');
    expect(roles.map((r) => r.logicalId).sort()).toEqual(packaged.map(([id]) => id).sort());
    for (const [id, role] of packaged)
      expect(roles.find((r) => r.logicalId === id)?.policies, id).toEqual(role.Properties?.Policies);
  });

  it('give every function, the workers and the state machine a role of their own', () => {
    const principals = roles.flatMap((r) => r.principals);
    expect(principals.sort()).toEqual([...HANDLER_FILES, 'state-machine', 'worker'].sort());
    for (const role of roles) expect(role.principals.length, role.logicalId).toBeLessThanOrEqual(1);
  });

  it('give the operator the packaged template’s managed policy, exported for the operators of a stage', () => {
    const policies = ofType(template, 'AWS::IAM::ManagedPolicy');
    expect(policies.map(([id]) => id)).toEqual([OPERATOR_POLICY]);
    const document = policies[0]![1].Properties!.PolicyDocument as { Statement: unknown[] };
    expect(operatorStatements(readServerlessDocument(), { stage: STAGE, region: REGION })).toEqual(
      document.Statement,
    );
    expect((template.Outputs as Record<string, { Value: unknown }>).OperatorPolicyArn?.Value).toEqual({
      Ref: OPERATOR_POLICY,
    });
  });
});
