import { type Adapters, createAdapters } from '../lib/adapters/create-adapters.js';
import { type Config, loadConfig } from '../lib/config/config.js';

/** What the Lambda handlers depend on, built from the environment once per container. */
export interface FunctionDeps extends Omit<Adapters, 'destroy'> {
  readonly config: Config;
}

let cached: FunctionDeps | undefined;

/** `onRequest` counts the AWS requests made (benchmarks of the local stack's Lambdas). */
export function functionDeps(
  env: NodeJS.ProcessEnv = process.env,
  onRequest?: (service: string, command: string) => void,
): FunctionDeps {
  if (cached) return cached;
  const config = loadConfig(env);
  cached = { config, ...createAdapters(config, { onRequest }) };
  return cached;
}
