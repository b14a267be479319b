import { inject } from 'vitest';
import { type AwsClients, createAwsClients } from '../../lib/aws/clients.js';
import { type Config, loadConfig } from '../../lib/config/config.js';

/** Config and SDK clients pointed at the suite's local stack. */
export function stackClients(): { config: Config; clients: AwsClients; env: Record<string, string> } {
  const env = inject('stackEnv');
  const config = loadConfig(env);
  return { config, clients: createAwsClients(config), env };
}
