import { inject, onTestFinished } from 'vitest';
import { type Adapters, createAdapters } from '../../lib/adapters/create-adapters.js';
import { type Config, loadConfig } from '../../lib/config/config.js';
import { type AwsBehaviour, startAwsBehaviour } from '../../local/faults/aws-behaviour.js';
import { type FaultRates, parseFaultRates } from '../../local/faults/fault-rates.js';

export interface FaultyStack extends Omit<Adapters, 'destroy'> {
  readonly behaviour: AwsBehaviour;
  readonly config: Config;
}

/**
 * The AWS-behaviour layer in front of the suite's emulators, with clients pointed at it;
 * closed when the current test finishes. `rates` are GEOHUB_FAULT_* variables.
 */
export async function faultyStack(
  rates: Record<string, string>,
  clientEnv: Record<string, string> = {},
): Promise<FaultyStack> {
  const env = inject('stackEnv');
  const parsed: FaultRates = parseFaultRates(rates);
  const behaviour = await startAwsBehaviour({
    emulators: {
      dynamodb: env.GEOHUB_ENDPOINT_DYNAMODB!,
      s3: env.GEOHUB_ENDPOINT_S3!,
      sqs: env.GEOHUB_ENDPOINT_SQS!,
    },
    rates: parsed,
    keyNames: { [env.GEOHUB_TABLE!]: ['PK', 'SK'] },
  });
  const config = loadConfig({
    ...env,
    GEOHUB_ENDPOINT_DYNAMODB: behaviour.endpoints.dynamodb,
    GEOHUB_ENDPOINT_S3: behaviour.endpoints.s3,
    GEOHUB_ENDPOINT_SQS: behaviour.endpoints.sqs,
    ...clientEnv,
  });
  const adapters = createAdapters(config);
  onTestFinished(async () => {
    adapters.destroy();
    await behaviour.close();
  });
  return { behaviour, config, ...adapters };
}
