import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAwsClients } from '../../lib/aws/clients.js';
import { type Config, loadConfig } from '../../lib/config/config.js';
import { type AwsBehaviour, type FaultCounts, startAwsBehaviour } from '../faults/aws-behaviour.js';
import type { FaultRates } from '../faults/fault-rates.js';
import { type EmulatorProcess, startEmulator } from './emulator-process.js';
import type { EmulatorKind, EmulatorMessage } from './emulator-protocol.js';
import { CREDENTIAL_ENV, newLocalCredentials } from './local-credentials.js';
import { provision } from './provision.js';
import { readResources, type StackResources } from './resources.js';

export const LOCAL_STAGE = 'local';
export const LOCAL_ACCOUNT = '000000000000';
export const LOCAL_REGION = 'us-east-1';

export interface LocalStack {
  /** The environment that points geohub (handlers, workers, CLI) at this stack. */
  readonly env: Readonly<Record<string, string>>;
  readonly config: Config;
  readonly resources: StackResources;
  /** PIDs of the emulator processes (the DynamoDB wrapper's Java child dies with it). */
  readonly pids: readonly number[];
  /** What the AWS-behaviour layer injected so far (undefined when the stack runs without it). */
  faults(): FaultCounts | undefined;
  /** S3-style event records for objects written to the local bucket. */
  onS3Event(listener: (record: unknown) => void): void;
  /** Stops every emulator and removes the stack's data; safe to call more than once. */
  stop(): Promise<void>;
}

export interface StartOptions {
  readonly resources?: StackResources;
  /** Put the AWS-behaviour layer in front of the emulators, at these rates. */
  readonly faults?: FaultRates;
}

const live = new Set<EmulatorProcess>();
const liveDirs = new Set<string>();
let exitHookInstalled = false;

// Last line of defence: whatever way this process exits, its emulators go with it.
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const emulator of live) {
      try {
        process.kill(emulator.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    for (const dir of liveDirs) rmSync(dir, { recursive: true, force: true });
  });
}

/** Starts DynamoDB Local, s3rver and the SQS emulator, and creates the resources of serverless.yml. */
export async function startLocalStack(options: StartOptions = {}): Promise<LocalStack> {
  installExitHook();
  const resources =
    options.resources ??
    readResources({ stage: LOCAL_STAGE, accountId: LOCAL_ACCOUNT, region: LOCAL_REGION });
  const dataDir = mkdtempSync(join(tmpdir(), 'geohub-s3-'));
  liveDirs.add(dataDir);
  const credentials = newLocalCredentials();
  const credentialEnv = {
    [CREDENTIAL_ENV.accessKeyId]: credentials.accessKeyId,
    [CREDENTIAL_ENV.secretAccessKey]: credentials.secretAccessKey,
  };
  const listeners: ((record: unknown) => void)[] = [];
  const onMessage = (message: EmulatorMessage) => {
    if (message.type === 's3-event') for (const listener of listeners) listener(message.record);
  };

  const kinds: EmulatorKind[] = ['dynamodb', 's3rver', 'sqs'];
  const started = await Promise.allSettled(
    kinds.map((kind) => startEmulator(kind, dataDir, credentialEnv, onMessage)),
  );
  const emulators = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  for (const emulator of emulators) live.add(emulator);

  let behaviour: AwsBehaviour | undefined;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await behaviour?.close();
    await Promise.all(emulators.map((e) => e.stop()));
    for (const emulator of emulators) live.delete(emulator);
    rmSync(dataDir, { recursive: true, force: true });
    liveDirs.delete(dataDir);
  };

  try {
    const failure = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
    const endpoint = (kind: EmulatorKind) => emulators.find((e) => e.kind === kind)!.endpoint;
    const baseEnv = {
      GEOHUB_REGION: LOCAL_REGION,
      GEOHUB_ENDPOINT_DYNAMODB: endpoint('dynamodb'),
      GEOHUB_ENDPOINT_S3: endpoint('s3rver'),
      GEOHUB_ENDPOINT_SQS: endpoint('sqs'),
      ...credentialEnv,
    };
    const bootstrap = createAwsClients(
      loadConfig({
        ...baseEnv,
        GEOHUB_BUCKET: resources.bucket.BucketName,
        GEOHUB_TABLE: resources.table.TableName,
        GEOHUB_QUEUE_URL: `${baseEnv.GEOHUB_ENDPOINT_SQS}/unused`,
        GEOHUB_DLQ_URL: `${baseEnv.GEOHUB_ENDPOINT_SQS}/unused`,
      }),
    );
    const names = await provision(bootstrap, resources).finally(() => bootstrap.destroy());
    if (options.faults) {
      behaviour = await startAwsBehaviour({
        emulators: { dynamodb: endpoint('dynamodb'), s3: endpoint('s3rver'), sqs: endpoint('sqs') },
        rates: options.faults,
        keyNames: { [names.table]: resources.table.KeySchema.map((k) => k.AttributeName) },
      });
    }
    const env = {
      ...baseEnv,
      ...(behaviour
        ? {
            GEOHUB_ENDPOINT_DYNAMODB: behaviour.endpoints.dynamodb,
            GEOHUB_ENDPOINT_S3: behaviour.endpoints.s3,
            GEOHUB_ENDPOINT_SQS: behaviour.endpoints.sqs,
          }
        : {}),
      GEOHUB_BUCKET: names.bucket,
      GEOHUB_TABLE: names.table,
      GEOHUB_QUEUE_URL: names.queueUrls.WorkQueue!,
      GEOHUB_DLQ_URL: names.queueUrls.DeadLetterQueue!,
    };
    return {
      env,
      config: loadConfig(env),
      resources,
      pids: emulators.map((e) => e.pid),
      faults: () => behaviour?.counts(),
      onS3Event: (listener) => listeners.push(listener),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
