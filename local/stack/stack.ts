import { createAwsClients } from '../../lib/aws/clients.js';
import { type Config, loadConfig } from '../../lib/config/config.js';
import { markPhase } from '../../lib/log/phase-marks.js';
import { type AwsBehaviour, type FaultCounts, startAwsBehaviour } from '../faults/aws-behaviour.js';
import type { FaultRates } from '../faults/fault-rates.js';
import { iamGate } from '../iam/iam-gate.js';
import { createLocalIam, type LocalIam } from '../iam/local-iam.js';
import { recordRequests } from '../iam/record-requests.js';
import type { EmulatorKind } from './emulator-protocol.js';
import { type EmulatorSet, startEmulators } from './emulator-set.js';
import { CREDENTIAL_ENV } from './local-credentials.js';
import { provision } from './provision.js';
import { readResources, type StackResources } from './resources.js';
import { readServerlessDocument, SERVERLESS_FILE } from './serverless-document.js';
import { withVersionId } from './versioned-events.js';

export const LOCAL_STAGE = 'local';
export const LOCAL_ACCOUNT = '000000000000';
export const LOCAL_REGION = 'us-east-1';
/**
 * The account's administrator: the stack's own key, which IAM does not check (provisioning, a
 * test's set-up, a person at the console). No geohub code runs as it.
 */
export const ADMINISTRATOR = 'administrator';

export interface LocalStack {
  /** The environment that points geohub (handlers, workers, CLI) at this stack. */
  readonly env: Readonly<Record<string, string>>;
  readonly config: Config;
  readonly resources: StackResources;
  /** PIDs of the emulator processes (the DynamoDB wrapper's Java child dies with it). */
  readonly pids: readonly number[];
  /** The stack's IAM (local/iam): each principal's key, the evaluator; undefined when off. */
  readonly iam?: LocalIam;
  /**
   * The environment of one principal (a function's handler file, `worker`, `operator`): the
   * stack's, with that principal's key id, so IAM checks its calls against its role; the
   * ADMINISTRATOR's keeps the stack's own key.
   */
  envFor(principal: string): Record<string, string>;
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
  /**
   * IAM enforced as AWS does, the roles read from serverless.yml (on by default; false only for
   * the tests of the stand-ins themselves).
   */
  readonly iam?: boolean;
  /**
   * The template the stack is built from instead of serverless.yml (parsed): its roles, which IAM
   * enforces, and its resources, the bucket's notifications among them. A test gives a copy with
   * one statement removed, or a notification's filter changed, to see a run end as it would on AWS.
   */
  readonly template?: unknown;
  /** Emulators already starting (emulator-set.ts); by default this start starts them. */
  readonly emulators?: EmulatorSet;
}

/** Starts DynamoDB Local, s3rver and the SQS emulator, and creates the resources of serverless.yml. */
export async function startLocalStack(options: StartOptions = {}): Promise<LocalStack> {
  const set = options.emulators ?? startEmulators();
  const listeners: ((record: unknown) => void)[] = [];
  let versioned = false;
  set.onMessage((message) => {
    if (message.type !== 's3-event') return;
    const record = versioned ? withVersionId(message.record) : message.record;
    for (const listener of listeners) listener(record);
  });
  let behaviour: AwsBehaviour | undefined;
  let iamOf: LocalIam | undefined;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (iamOf) recordRequests(iamOf.authorizer);
    await behaviour?.close();
    await set.stop();
  };

  try {
    const resources =
      options.resources ??
      readResources(
        { stage: LOCAL_STAGE, accountId: LOCAL_ACCOUNT, region: LOCAL_REGION },
        SERVERLESS_FILE,
        options.template,
      );
    const { credentialEnv } = set;
    // Read while the emulators start (the ARN formats are iam-data's files).
    const iamStart =
      options.iam === false
        ? undefined
        : createLocalIam({
            document: options.template ?? readServerlessDocument(),
            vars: { stage: LOCAL_STAGE, region: LOCAL_REGION },
            scope: { partition: 'aws', region: LOCAL_REGION, account: LOCAL_ACCOUNT },
            secret: credentialEnv[CREDENTIAL_ENV.secretAccessKey]!,
          });
    iamStart?.catch(() => {}); // awaited below, after the emulators
    versioned = resources.bucket.versioned === true;
    const emulators = await set.started;
    // Set before the bucket is made: every upload S3 would announce is announced, and no other.
    const notificationsSet = set.setNotifications(resources.bucket.notifications);
    notificationsSet.catch(() => {}); // awaited below, before the bucket
    const iam = await iamStart;
    iamOf = iam;
    const stackKeyId = credentialEnv[CREDENTIAL_ENV.accessKeyId]!;
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
    markPhase('stack: emulators up');
    await notificationsSet;
    const names = await provision(bootstrap, resources).finally(() => bootstrap.destroy());
    markPhase('stack: tables and queues made');
    if (options.faults || iam) {
      behaviour = await startAwsBehaviour({
        emulators: { dynamodb: endpoint('dynamodb'), s3: endpoint('s3rver'), sqs: endpoint('sqs') },
        rates: options.faults,
        gates: iam && {
          dynamodb: iamGate('dynamodb', iam, stackKeyId),
          s3: iamGate('s3', iam, stackKeyId),
          sqs: iamGate('sqs', iam, stackKeyId),
        },
        keyNames: { [names.table]: resources.table.KeySchema.map((k) => k.AttributeName) },
        keyIds: [stackKeyId, ...(iam?.principals.map((p) => iam.keyFor(p.name)) ?? [])],
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
      iam,
      envFor: (principal) =>
        iam && principal !== ADMINISTRATOR
          ? { ...env, [CREDENTIAL_ENV.accessKeyId]: iam.keyFor(principal) }
          : { ...env },
      config: loadConfig(env),
      resources,
      pids: emulators.map((e) => e.pid),
      faults: () => (options.faults ? behaviour?.counts() : undefined),
      onS3Event: (listener) => listeners.push(listener),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
