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
    keyIds: [env.GEOHUB_LOCAL_ACCESS_KEY_ID!],
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

/** Every injected 500 is one attempt of a request that was not its last successful one. */
export const injectedBy = (seen: readonly { ok: boolean; attempts: number }[]) =>
  seen.reduce((n, r) => n + r.attempts - (r.ok ? 1 : 0), 0);

/**
 * `count` requests through a layer answering 500 at some rate: each succeeds after `attempts - 1`
 * injected errors or fails after maxAttempts of them. Returns what each request saw.
 */
export async function sendAll(
  count: number,
  send: (i: number) => Promise<{ $metadata: { attempts?: number } }>,
): Promise<{ ok: boolean; attempts: number }[]> {
  const seen: { ok: boolean; attempts: number }[] = [];
  for (let i = 0; i < count; i += 1) {
    await send(i).then(
      (r) => seen.push({ ok: true, attempts: r.$metadata.attempts ?? 1 }),
      (e: { $metadata?: { attempts?: number } }) =>
        seen.push({ ok: false, attempts: e.$metadata?.attempts ?? 0 }),
    );
  }
  return seen;
}

/** An SDK error as the tests read it: its HTTP status and the attempts the SDK made. */
export type AwsError = Error & { $metadata?: { httpStatusCode?: number; attempts?: number } };
