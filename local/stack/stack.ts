import { type Config, loadConfig } from '../../lib/config/config.js';
import { markPhase } from '../../lib/log/phase-marks.js';
import {
  type AwsBehaviour,
  type FaultCounts,
  type FaultService,
  joinBehaviours,
  startAwsBehaviour,
} from '../faults/aws-behaviour.js';
import type { FaultRates } from '../faults/fault-rates.js';
import { iamGate } from '../iam/iam-gate.js';
import { createLocalIam, type LocalIam } from '../iam/local-iam.js';
import { recordRequests } from '../iam/record-requests.js';
import { type EmulatorSet, startEmulators } from './emulator-set.js';
import { CREDENTIAL_ENV } from './local-credentials.js';
import { NOT_UP, provisionAsReady } from './provision-as-ready.js';
import { readResources, type StackResources } from './resources.js';
import { s3EventRelay } from './s3-event-relay.js';
import { readServerlessDocument } from './serverless-document.js';

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
   * The document whose roles IAM enforces, instead of serverless.yml's (the resources still come
   * from serverless.yml): a test gives a copy with one statement removed to see a run end as it
   * would on AWS.
   */
  readonly iamDocument?: unknown;
  /** Emulators already starting (emulator-set.ts); by default this start starts them. */
  readonly emulators?: EmulatorSet;
  /** Called once the bucket can take objects, before the table is made (an upload may begin). */
  readonly onStorage?: (storage: StackStorage) => void;
}

/** The stack's bucket, up before the rest: the table waits for DynamoDB Local's Java. */
export interface StackStorage {
  /** A principal's environment (as LocalStack's), DynamoDB's endpoint not up yet: S3 and SQS only. */
  envFor(principal: string): Record<string, string>;
}

/** Starts DynamoDB Local, s3rver and the SQS emulator, and creates the resources of serverless.yml. */
export async function startLocalStack(options: StartOptions = {}): Promise<LocalStack> {
  const set = options.emulators ?? startEmulators();
  const events = s3EventRelay(set);
  let behaviour: AwsBehaviour<FaultService> | AwsBehaviour<'s3' | 'sqs'> | undefined;
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
      readResources({ stage: LOCAL_STAGE, accountId: LOCAL_ACCOUNT, region: LOCAL_REGION });
    const { credentialEnv } = set;
    const stackKeyId = credentialEnv[CREDENTIAL_ENV.accessKeyId]!;
    // Read while the emulators start (the ARN formats are iam-data's files).
    const iamStart =
      options.iam === false
        ? undefined
        : createLocalIam({
            document: options.iamDocument ?? readServerlessDocument(),
            vars: { stage: LOCAL_STAGE, region: LOCAL_REGION },
            scope: { partition: 'aws', region: LOCAL_REGION, account: LOCAL_ACCOUNT },
            secret: credentialEnv[CREDENTIAL_ENV.secretAccessKey]!,
          });
    iamStart?.catch(() => {}); // awaited below, after the emulators
    events.versioned(resources.bucket.versioned === true);
    const made = provisionAsReady(set, resources, LOCAL_REGION);
    const envOf = (
      endpoints: Record<'dynamodb' | 's3' | 'sqs', string>,
      queueUrls: Record<string, string>,
    ) => ({
      GEOHUB_REGION: LOCAL_REGION,
      GEOHUB_ENDPOINT_DYNAMODB: endpoints.dynamodb,
      GEOHUB_ENDPOINT_S3: endpoints.s3,
      GEOHUB_ENDPOINT_SQS: endpoints.sqs,
      ...credentialEnv,
      GEOHUB_BUCKET: resources.bucket.BucketName,
      GEOHUB_TABLE: resources.table.TableName,
      GEOHUB_QUEUE_URL: queueUrls.WorkQueue!,
      GEOHUB_DLQ_URL: queueUrls.DeadLetterQueue!,
    });
    const keyed = (env: Record<string, string>, iam: LocalIam | undefined) => (principal: string) =>
      iam && principal !== ADMINISTRATOR
        ? { ...env, [CREDENTIAL_ENV.accessKeyId]: iam.keyFor(principal) }
        : { ...env };

    // S3 and SQS up, the bucket and the queues made: their front doors open, IAM deciding, while
    // Java still starts. An upload may begin (options.onStorage); its event waits for a listener.
    const storage = await made.storage;
    const iam = await iamStart;
    iamOf = iam;
    const [s3rver, sqs] = await Promise.all([set.ready('s3rver'), set.ready('sqs')]);
    const keyIds = [stackKeyId, ...(iam?.principals.map((p) => iam.keyFor(p.name)) ?? [])];
    const front =
      options.faults || iam
        ? await startAwsBehaviour({
            emulators: { s3: s3rver.endpoint, sqs: sqs.endpoint },
            rates: options.faults,
            gates: iam && { s3: iamGate('s3', iam, stackKeyId), sqs: iamGate('sqs', iam, stackKeyId) },
            keyNames: {},
            keyIds,
          })
        : undefined;
    behaviour = front;
    const early = { s3: front?.endpoints.s3 ?? s3rver.endpoint, sqs: front?.endpoints.sqs ?? sqs.endpoint };
    options.onStorage?.({ envFor: keyed(envOf({ ...early, dynamodb: NOT_UP }, storage.queueUrls), iam) });

    const emulators = await set.started;
    const table = await made.table;
    markPhase('stack: tables and queues made');
    const dynamodb = (await set.ready('dynamodb')).endpoint;
    const back = front
      ? await startAwsBehaviour({
          emulators: { dynamodb },
          rates: options.faults,
          gates: iam && { dynamodb: iamGate('dynamodb', iam, stackKeyId) },
          keyNames: { [table]: resources.table.KeySchema.map((k) => k.AttributeName) },
          keyIds,
        })
      : undefined;
    const joined = front && back ? joinBehaviours(front, back) : undefined;
    behaviour = joined;
    const env = envOf({ ...early, dynamodb: back?.endpoints.dynamodb ?? dynamodb }, storage.queueUrls);
    events.started();
    return {
      env,
      iam,
      envFor: keyed(env, iam),
      config: loadConfig(env),
      resources,
      pids: emulators.map((e) => e.pid),
      faults: () => (options.faults ? joined?.counts() : undefined),
      onS3Event: events.listen,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
