import { SFNClient } from '@aws-sdk/client-sfn';
import type { Config } from '../config/config.js';
import { clientSettings } from './clients.js';

/**
 * The Step Functions client, bounded like every other client: an upload trigger or a
 * re-drive must not hang on a Step Functions endpoint that does not answer.
 */
export function createSfnClient(config: Config): SFNClient {
  return new SFNClient(clientSettings(config, config.endpoints.sfn));
}
