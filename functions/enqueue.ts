import middy from '@middy/core';
import { createAwsClients } from '../lib/aws/clients.js';
import { loadConfig } from '../lib/config/config.js';
import { type EnqueueDeps, type EnqueueResult, enqueueChunk } from '../lib/enqueue/enqueue-chunk.js';
import { parseEnqueueRequest } from '../lib/enqueue/enqueue-request.js';
import { createSqsQueue } from '../lib/queue/sqs-queue.js';
import { createS3Store } from '../lib/store/s3-store.js';

// Built on the first invocation and kept for the container's life (see functions/split.ts).
let deps: Omit<EnqueueDeps, 'signal'> | undefined;

function depsFromEnvironment(): Omit<EnqueueDeps, 'signal'> {
  const config = loadConfig();
  const clients = createAwsClients(config);
  return {
    store: createS3Store(clients.s3, config.bucket),
    queue: createSqsQueue(clients.sqs, config.queueUrl, config.deadLetterQueueUrl),
  };
}

/**
 * Enqueue Lambda, looped by the state machine: event `{manifest, cursor?}` → `{cursor, done, sent,
 * total, …}`; the next iteration passes the returned cursor back until `done`.
 */
export const handler = middy<unknown, EnqueueResult>({ timeoutEarlyInMillis: 1_000 }).handler(
  async (event, _context, { signal }) => {
    const request = parseEnqueueRequest(event);
    deps ??= depsFromEnvironment();
    return enqueueChunk(request.manifest, request.cursor, { ...deps, signal });
  },
);
