import type { Config } from '../../lib/config/config.js';
import { type LambdaLimits, readLambdaLimits } from '../statemachine/lambda-limits.js';
import { createLambdaPool, type LambdaPool } from '../statemachine/lambda-pool.js';
import type { LocalHubOptions } from './local-hub.js';

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

/** The Lambda containers of the state machine's tasks, configured from the environment as on AWS. */
export function startLambdas(env: Promise<Record<string, string>>, options: LocalHubOptions): LambdaPool {
  // Only the state machine's tasks run here (on-upload, reaper and redrive are called directly).
  const all = readLambdaLimits();
  const limits: Record<string, LambdaLimits> = {};
  for (const fn of ['split', 'enqueue', 'check-progress', 'drain', 'finalize', 'mark-failed'])
    limits[fn] = { ...all[fn]!, ...(options.lambdaLimits ? options.lambdaLimits[fn] : {}) };
  return createLambdaPool({ env, limits, onRequest: options.onAwsRequest });
}
