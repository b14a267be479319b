import { type AwsClients, createAwsClients } from '../lib/aws/clients.js';
import { createSfnClient } from '../lib/aws/sfn-client.js';
import { type Config, loadConfig } from '../lib/config/config.js';
import { ConfigError } from '../lib/config/errors.js';
import type { ExecutionStarter } from '../lib/coordination/execution-starter.js';
import { createSfnStarter } from '../lib/executions/sfn-starter.js';
import { createDynamoLedger } from '../lib/ledger/dynamodb-ledger.js';
import type { Ledger } from '../lib/ledger/ledger.js';
import { createSqsQueue } from '../lib/queue/sqs-queue.js';
import type { WorkQueue } from '../lib/queue/work-queue.js';
import type { ObjectStore } from '../lib/store/object-store.js';
import { createS3Store } from '../lib/store/s3-store.js';

/** What the Lambda handlers depend on, built from the environment once per container. */
export interface FunctionDeps {
  readonly config: Config;
  readonly clients: AwsClients;
  readonly ledger: Ledger;
  readonly store: ObjectStore;
  readonly queue: WorkQueue;
  readonly deadLetters: WorkQueue;
  readonly starter: () => ExecutionStarter;
}

let cached: FunctionDeps | undefined;

export function functionDeps(env: NodeJS.ProcessEnv = process.env): FunctionDeps {
  if (cached) return cached;
  const config = loadConfig(env);
  const clients = createAwsClients(config);
  const bounds = { requestTimeoutMs: config.requestTimeoutMs };
  cached = {
    config,
    clients,
    ledger: createDynamoLedger(clients.documents, config.table),
    store: createS3Store(clients.s3, config.bucket),
    queue: createSqsQueue(clients.sqs, config.queueUrl, config.deadLetterQueueUrl, bounds),
    deadLetters: createSqsQueue(clients.sqs, config.deadLetterQueueUrl, config.deadLetterQueueUrl, bounds),
    starter: () => {
      if (!config.stateMachineArn)
        throw new ConfigError('GEOHUB_STATE_MACHINE_ARN is required to start executions');
      return createSfnStarter(createSfnClient(config), config.stateMachineArn);
    },
  };
  return cached;
}
