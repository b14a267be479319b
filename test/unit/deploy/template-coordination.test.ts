import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../lib/config/config.js';
import {
  ACCOUNT,
  asArray,
  getAtt,
  HANDLER_FILES,
  lambdaFor,
  ofType,
  packagedTemplate,
  props,
  REGION,
  ROOT,
  resolveValue,
  resource,
  roleStatements,
  SERVICE,
  STAGE,
} from '../../support/serverless-template.js';

// Packaged once per test run (under a lock shared by the deploy test files), before collection.
const template = await packagedTemplate();

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
      const [id] = lambdaFor(template, file);
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
        lambdaFor(template, file)[1],
      ).Environment;
      expect(env.Variables.GEOHUB_STATE_MACHINE_ARN, file).toEqual({ Ref: smId });
    }
  });
});

describe('run control and schedules', () => {
  it('records every execution’s end on its run: failed, stopped (ABORTED) and timed-out ones end it', () => {
    const [smId] = ofType(template, 'AWS::StepFunctions::StateMachine')[0]!;
    const [onStatusId] = lambdaFor(template, 'on-execution-status');
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
    const [reaperId] = lambdaFor(template, 'reaper');
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
      const vars = props<{ Environment: { Variables: Record<string, unknown> } }>(
        lambdaFor(template, file)[1],
      ).Environment.Variables;
      const env = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, resolveValue(template, v)]));
      const config = loadConfig(env);
      expect(config.bucket, file).toBe(`${SERVICE}-${STAGE}-${ACCOUNT}-data`);
      expect(config.endpoints, file).toEqual({});
    }
  });
});
