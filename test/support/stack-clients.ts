import { inject } from 'vitest';
import { type Adapters, createAdapters } from '../../lib/adapters/create-adapters.js';
import { type Config, loadConfig } from '../../lib/config/config.js';

/** Config, SDK clients and the adapters on them, pointed at the suite's local stack. */
export function stackClients(): Adapters & { config: Config; env: Record<string, string> } {
  const env = inject('stackEnv');
  const config = loadConfig(env);
  return { config, env, ...createAdapters(config) };
}
