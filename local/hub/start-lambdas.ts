import { CONTAINER_FUNCTIONS } from '../../functions/registry.js';
import type { Config } from '../../lib/config/config.js';
import type { LocalStack } from '../stack/stack.js';
import { type LambdaLimits, readLambdaLimits } from '../statemachine/lambda-limits.js';
import { createLambdaPool, type LambdaPool } from '../statemachine/lambda-pool.js';
import type { LocalHubOptions } from './local-hub-options.js';

/** The environment of the Lambda containers: the stack's, with the hub's settings, as on AWS. */
export function lambdaEnv(
  stackEnv: Readonly<Record<string, string>>,
  config: Config,
): Record<string, string> {
  return {
    ...stackEnv,
    GEOHUB_BREAKER_MIN_SAMPLE: String(config.breaker.minSample),
    GEOHUB_BREAKER_FAILURE_RATIO: String(config.breaker.failureRatio),
    GEOHUB_LOOP_EVENT_BUDGET: String(config.loopEventBudget),
    GEOHUB_DRAIN_MAX_MS: String(config.maxDrainMs),
    GEOHUB_TILES_PER_MESSAGE: String(config.tilesPerMessage),
  };
}

/** The variable that carries each function's key id to its containers (lambda-thread-main.ts). */
export const FUNCTION_KEYS_ENV = 'GEOHUB_LOCAL_FUNCTION_KEYS';

/** Each task function's own key id (local/iam): its container's calls are checked against its role. */
export function functionKeys(stack: LocalStack): Record<string, string> {
  const { iam } = stack;
  if (!iam) return {};
  const keys = Object.fromEntries(CONTAINER_FUNCTIONS.map((f) => [f, iam.keyFor(f)]));
  return { [FUNCTION_KEYS_ENV]: JSON.stringify(keys) };
}

/** The Lambda containers of the state machine's tasks, configured from the environment as on AWS. */
export function startLambdas(env: Promise<Record<string, string>>, options: LocalHubOptions): LambdaPool {
  // Only the state machine's tasks run here (on-upload, reaper and redrive are called directly).
  const all = readLambdaLimits();
  const limits: Record<string, LambdaLimits> = {};
  for (const fn of CONTAINER_FUNCTIONS)
    limits[fn] = { ...all[fn]!, ...(options.lambdaLimits ? options.lambdaLimits[fn] : {}) };
  return createLambdaPool({ env, limits, onRequest: options.onAwsRequest });
}
