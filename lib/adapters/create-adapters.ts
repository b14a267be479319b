import { type AwsClients, type ClientOptions, createAwsClients } from '../aws/clients.js';
import { createSfnClient } from '../aws/sfn-client.js';
import type { Config } from '../config/config.js';
import { ConfigError } from '../config/errors.js';
import type { ExecutionStarter } from '../executions/execution-starter.js';
import { retryingStarter } from '../executions/retrying-starter.js';
import { createSfnStarter } from '../executions/sfn-starter.js';
import { createDynamoExecutionChain } from '../ledger/dynamo/execution-chain.js';
import { createDynamoLedger } from '../ledger/dynamodb-ledger.js';
import type { ExecutionChain } from '../ledger/execution-chain.js';
import type { Ledger } from '../ledger/ledger.js';
import { createSqsQueue } from '../queue/sqs-queue.js';
import type { WorkQueue } from '../queue/work-queue.js';
import type { ObjectStore } from '../store/object-store.js';
import { createS3Store } from '../store/s3-store.js';

/** The ports of docs/architecture.md ("Layers") on AWS, or on the local stack through config's endpoints. */
export interface Adapters {
  readonly clients: AwsClients;
  readonly ledger: Ledger;
  /** The executions of each run (a run of any length is a chain of them). */
  readonly chain: ExecutionChain;
  readonly store: ObjectStore;
  readonly queue: WorkQueue;
  /** The dead-letter queue, read by progress checks and re-drives; it has no dead-letter queue of its own. */
  readonly deadLetters: WorkQueue;
  /** Step Functions executions; fails when config names no state machine (only some callers need one). */
  starter(): ExecutionStarter;
  /** Closes the SDK clients, unless they were passed in (then their owner closes them). */
  destroy(): void;
}

export interface AdapterOptions extends ClientOptions {
  /** Clients to share (a test's or a bench's); default: new ones from config. */
  readonly clients?: AwsClients;
}

/** The one place where SDK clients become the ledger, store, queues and state machine. */
export function createAdapters(config: Config, options: AdapterOptions = {}): Adapters {
  const clients = options.clients ?? createAwsClients(config, { onRequest: options.onRequest });
  const bounds = { requestTimeoutMs: config.requestTimeoutMs };
  let starter: ExecutionStarter | undefined;
  return {
    clients,
    ledger: createDynamoLedger(clients.documents, config.table),
    chain: createDynamoExecutionChain(clients.documents, config.table),
    store: createS3Store(clients.s3, config.bucket),
    queue: createSqsQueue(clients.sqs, config.queueUrl, {
      ...bounds,
      deadLetterQueueUrl: config.deadLetterQueueUrl,
    }),
    deadLetters: createSqsQueue(clients.sqs, config.deadLetterQueueUrl, bounds),
    starter() {
      if (!config.stateMachineArn)
        throw new ConfigError('GEOHUB_STATE_MACHINE_ARN is required to start executions');
      // A refused StartExecution is tried again, so no upload or hand-over loses its run.
      starter ??= retryingStarter(createSfnStarter(createSfnClient(config), config.stateMachineArn));
      return starter;
    },
    destroy() {
      if (!options.clients) clients.destroy();
    },
  };
}
