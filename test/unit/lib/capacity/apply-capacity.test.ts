import { DescribeServicesCommand, ECSClient, UpdateServiceCommand } from '@aws-sdk/client-ecs';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { applyCapacity } from '../../../../lib/capacity/apply-capacity.js';
import type { CapacityTarget } from '../../../../lib/capacity/capacity-target.js';
import { ecsCapacityTarget } from '../../../../lib/capacity/ecs-capacity-target.js';
import { CapacityTargetError } from '../../../../lib/capacity/errors.js';
import type { CapacityMode } from '../../../../lib/cost/capacity-policy.js';
import type { RunRecord, RunStatus } from '../../../../lib/model/run.js';

const run = (status: RunStatus, done: number, interrupted: number) =>
  ({
    runId: `r-${status}-${done}-${interrupted}`,
    status,
    counters: { total: 1000, done, failed: 0, cancelled: 0, parked: 0, interrupted, retried: 0 },
  }) as unknown as RunRecord;

/** A capacity target that records what was set. */
function target(start: CapacityMode): CapacityTarget & { sets: CapacityMode[] } {
  let mode = start;
  const sets: CapacityMode[] = [];
  return {
    sets,
    current: async () => mode,
    set: async (next) => {
      sets.push(next);
      mode = next;
    },
  };
}

describe('the scheduled capacity check (AWS)', () => {
  it('goes on-demand when the running runs’ interruption rate passes the break-even rate (69 %)', async () => {
    const t = target('spot');
    const runs = [run('RUNNING', 10, 30), run('RUNNING', 5, 20), run('SUCCEEDED', 0, 500)];
    const out = await applyCapacity({ ledger: { listRuns: async () => runs }, target: t });
    expect(out).toMatchObject({ previous: 'spot', mode: 'on-demand', attempts: 65 });
    expect(out.rate).toBeCloseTo(50 / 65, 10);
    expect(t.sets).toEqual(['on-demand']);
  });

  it('stays between half the break-even rate and the break-even rate, and goes back to spot below it', async () => {
    const t = target('on-demand');
    await applyCapacity({ ledger: { listRuns: async () => [run('RUNNING', 50, 50)] }, target: t });
    expect(t.sets).toEqual([]);
    const out = await applyCapacity({
      ledger: { listRuns: async () => [run('RUNNING', 200, 50)] },
      target: t,
    });
    expect(out).toMatchObject({ previous: 'on-demand', mode: 'spot' });
    expect(t.sets).toEqual(['spot']);
  });

  it('changes nothing on too few attempts', async () => {
    const t = target('spot');
    const out = await applyCapacity({ ledger: { listRuns: async () => [run('RUNNING', 1, 9)] }, target: t });
    expect(out).toMatchObject({ mode: 'spot', attempts: 10 });
    expect(t.sets).toEqual([]);
  });
});

describe('the worker service as the capacity target', () => {
  it('reads the mode from the capacity provider strategy and sets it with a new deployment', async () => {
    const ecs = mockClient(ECSClient);
    ecs.on(DescribeServicesCommand).resolves({
      services: [{ capacityProviderStrategy: [{ capacityProvider: 'FARGATE', weight: 1 }] }],
    });
    ecs.on(UpdateServiceCommand).resolves({});
    const t = ecsCapacityTarget(new ECSClient({ region: 'us-east-1' }), 'geohub-ci', 'geohub-ci-worker');
    expect(await t.current()).toBe('on-demand');
    await t.set('spot');
    expect(ecs.commandCalls(UpdateServiceCommand)[0]!.args[0].input).toEqual({
      cluster: 'geohub-ci',
      service: 'geohub-ci-worker',
      capacityProviderStrategy: [{ capacityProvider: 'FARGATE_SPOT', weight: 1 }],
      forceNewDeployment: true,
    });
    ecs.on(DescribeServicesCommand).resolves({
      services: [
        {
          capacityProviderStrategy: [
            { capacityProvider: 'FARGATE_SPOT', weight: 1 },
            { capacityProvider: 'FARGATE', weight: 1 },
          ],
        },
      ],
    });
    expect(await t.current()).toBe('spot');
    ecs.restore();
  });

  it('fails with a clear error when the service is not there', async () => {
    const ecs = mockClient(ECSClient);
    ecs.on(DescribeServicesCommand).resolves({ services: [], failures: [{ reason: 'MISSING' }] });
    const t = ecsCapacityTarget(new ECSClient({ region: 'us-east-1' }), 'geohub-ci', 'nope');
    await expect(t.current()).rejects.toThrow(CapacityTargetError);
    await expect(t.current()).rejects.toThrow('no ECS service nope in cluster geohub-ci');
    ecs.restore();
  });
});
