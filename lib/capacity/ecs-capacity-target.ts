import { DescribeServicesCommand, type ECSClient, UpdateServiceCommand } from '@aws-sdk/client-ecs';
import type { CapacityMode } from '../cost/capacity-policy.js';
import type { CapacityTarget } from './capacity-target.js';
import { CapacityTargetError } from './errors.js';

const STRATEGY: Readonly<Record<CapacityMode, { capacityProvider: string; weight: number }[]>> = {
  spot: [{ capacityProvider: 'FARGATE_SPOT', weight: 1 }],
  'on-demand': [{ capacityProvider: 'FARGATE', weight: 1 }],
};

/**
 * The worker service's capacity provider strategy as the capacity target. A change of strategy
 * needs a new deployment: it rolls out beside the running tasks (minimum healthy 100 %), each old
 * task stopping with SIGTERM once its replacement runs. A later `osls deploy` sets the strategy
 * of its parameters again (docs/deploy.md).
 */
export function ecsCapacityTarget(ecs: ECSClient, cluster: string, service: string): CapacityTarget {
  return {
    async current() {
      const r = await ecs.send(new DescribeServicesCommand({ cluster, services: [service] }));
      const found = r.services?.[0];
      if (!found) throw new CapacityTargetError(`no ECS service ${service} in cluster ${cluster}`);
      const weight = (provider: string) =>
        (found.capacityProviderStrategy ?? []).find((s) => s.capacityProvider === provider)?.weight ?? 0;
      return weight('FARGATE') > 0 && weight('FARGATE_SPOT') === 0 ? 'on-demand' : 'spot';
    },
    async set(mode) {
      await ecs.send(
        new UpdateServiceCommand({
          cluster,
          service,
          capacityProviderStrategy: STRATEGY[mode],
          forceNewDeployment: true,
        }),
      );
    },
  };
}
