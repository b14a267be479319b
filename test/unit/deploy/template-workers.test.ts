import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../lib/config/config.js';
import { loadWorkerConfig } from '../../../worker/config.js';
import {
  asArray,
  ofType,
  packagedTemplate,
  props,
  resolveValue,
  resource,
} from '../../support/serverless-template.js';

// Packaged once per test run (under a lock shared by the deploy test files), before collection.
const template = await packagedTemplate();

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
    // A long poll is never aborted at a SIGTERM: SQS's full 20 s, ending well inside the grace.
    expect(wc.receiveWaitSeconds).toBe(20);
    expect(wc.receiveWaitSeconds * 1000).toBeLessThan(wc.stopGraceMs);
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
