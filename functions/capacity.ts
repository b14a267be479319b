import middy from '@middy/core';
import { z } from 'zod';
import { createEcsClient } from '../lib/aws/ecs-client.js';
import { applyCapacity } from '../lib/capacity/apply-capacity.js';
import type { CapacityTarget } from '../lib/capacity/capacity-target.js';
import { ecsCapacityTarget } from '../lib/capacity/ecs-capacity-target.js';
import { ConfigError } from '../lib/config/errors.js';
import { zodProblems } from '../lib/model/zod-problems.js';
import { type FunctionDeps, functionDeps } from './deps.js';

const envSchema = z.object({
  GEOHUB_WORKER_CLUSTER: z.string().min(1),
  GEOHUB_WORKER_SERVICE: z.string().min(1),
});

/** Scheduled: the worker service's new capacity on spot or on-demand, by the runs' interruption rate. */
export const capacityTask = (deps: Pick<FunctionDeps, 'ledger'> & { target: CapacityTarget }) => async () =>
  applyCapacity(deps);

let target: CapacityTarget | undefined;
function workerService(env: NodeJS.ProcessEnv = process.env): CapacityTarget {
  if (target) return target;
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) throw new ConfigError(`capacity: invalid environment: ${zodProblems(parsed.error)}`);
  const config = functionDeps(env).config;
  target = ecsCapacityTarget(
    createEcsClient(config),
    parsed.data.GEOHUB_WORKER_CLUSTER,
    parsed.data.GEOHUB_WORKER_SERVICE,
  );
  return target;
}

export const handler = middy().handler(() =>
  capacityTask({ ledger: functionDeps().ledger, target: workerService() })(),
);
