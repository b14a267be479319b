import { ECSClient } from '@aws-sdk/client-ecs';
import type { Config } from '../config/config.js';
import { clientSettings } from './clients.js';

/** The ECS client of the capacity check, bounded like every other client. No local endpoint: ECS has no stand-in. */
export function createEcsClient(config: Config): ECSClient {
  return new ECSClient(clientSettings(config, undefined));
}
