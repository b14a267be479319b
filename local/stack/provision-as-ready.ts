import { type AwsClients, createAwsClients } from '../../lib/aws/clients.js';
import { loadConfig } from '../../lib/config/config.js';
import { markPhase } from '../../lib/log/phase-marks.js';
import { createTable } from './create-table.js';
import type { EmulatorKind } from './emulator-protocol.js';
import type { EmulatorSet } from './emulator-set.js';
import { type ProvisionedNames, provisionBucketAndQueues } from './provision.js';
import type { StackResources } from './resources.js';

/** An endpoint that is not up yet, and never called: a closed port, should it be. */
export const NOT_UP = 'http://127.0.0.1:9';

/**
 * Each resource made as soon as its own stand-in answers, as the account's administrator: the
 * bucket and the queues while DynamoDB Local's Java starts (the longest start), the table right
 * after it. Neither is awaited here: the stack waits for what each of its steps needs.
 */
export function provisionAsReady(
  set: EmulatorSet,
  resources: StackResources,
  region: string,
): { storage: Promise<Omit<ProvisionedNames, 'table'>>; table: Promise<string> } {
  const withClients = async <T>(
    endpoints: Partial<Record<EmulatorKind, string>>,
    use: (clients: AwsClients) => Promise<T>,
  ): Promise<T> => {
    const clients = createAwsClients(
      loadConfig({
        GEOHUB_REGION: region,
        GEOHUB_ENDPOINT_DYNAMODB: endpoints.dynamodb ?? NOT_UP,
        GEOHUB_ENDPOINT_S3: endpoints.s3rver ?? NOT_UP,
        GEOHUB_ENDPOINT_SQS: endpoints.sqs ?? NOT_UP,
        ...set.credentialEnv,
        GEOHUB_BUCKET: resources.bucket.BucketName,
        GEOHUB_TABLE: resources.table.TableName,
        GEOHUB_QUEUE_URL: `${NOT_UP}/unused`,
        GEOHUB_DLQ_URL: `${NOT_UP}/unused`,
      }),
    );
    try {
      return await use(clients);
    } finally {
      clients.destroy();
    }
  };
  const storage = Promise.all([set.ready('s3rver'), set.ready('sqs')]).then(([s3, sqs]) =>
    withClients({ s3rver: s3.endpoint, sqs: sqs.endpoint }, (clients) =>
      provisionBucketAndQueues(clients, resources),
    ).then(marked('stack: bucket and queues made')),
  );
  const table = set
    .ready('dynamodb')
    .then((dynamodb) =>
      withClients({ dynamodb: dynamodb.endpoint }, (clients) =>
        createTable(clients.dynamodb, resources.table),
      ),
    )
    .then(marked('stack: table made'));
  // Each is awaited by the stack once it needs it; a failure before then is reported there.
  storage.catch(() => {});
  table.catch(() => {});
  return { storage, table };
}

/** Marks a phase when a step settles with its value, and passes the value on. */
const marked =
  (phase: string) =>
  <T>(value: T): T => {
    markPhase(phase);
    return value;
  };
