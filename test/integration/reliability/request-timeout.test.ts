import { createServer, type Socket } from 'node:net';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand } from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, it } from 'vitest';
import { functionDeps } from '../../../functions/deps.js';
import { createAwsClients } from '../../../lib/aws/clients.js';
import { loadConfig } from '../../../lib/config/config.js';
import { createSqsQueue } from '../../../lib/queue/sqs-queue.js';
import { stackClients } from '../../support/stack-clients.js';

// A server that accepts connections and never answers: a hung dependency.
const sockets = new Set<Socket>();
const server = createServer((s) => {
  sockets.add(s);
  s.on('error', () => {});
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
const port = (server.address() as { port: number }).port;
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

describe('every AWS request is bounded', () => {
  it('a call to a dependency that never answers fails after the request timeout and its retries', async () => {
    const config = loadConfig({
      GEOHUB_BUCKET: 'geohub-test',
      GEOHUB_TABLE: 'geohub-test',
      GEOHUB_QUEUE_URL: `http://127.0.0.1:${port}/q`,
      GEOHUB_DLQ_URL: `http://127.0.0.1:${port}/d`,
      GEOHUB_ENDPOINT_DYNAMODB: `http://127.0.0.1:${port}`,
      GEOHUB_REQUEST_TIMEOUT_MS: '300',
      GEOHUB_MAX_ATTEMPTS: '2',
    });
    const clients = createAwsClients(config);
    const started = Date.now();
    const error = await clients.dynamodb
      .send(new GetItemCommand({ TableName: 't', Key: { PK: { S: 'x' } } }))
      .catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    clients.destroy();
    expect((error as Error).name).toBe('TimeoutError');
    expect(elapsed).toBeLessThan(20_000); // 2 attempts × 300 ms plus back-off, not forever (slack for load)
  });
});

describe('the Step Functions client is bounded like the others', () => {
  it("the upload trigger's StartExecution against an endpoint that never answers fails after the timeout and its retries", async () => {
    const deps = functionDeps({
      GEOHUB_BUCKET: 'geohub-test',
      GEOHUB_TABLE: 'geohub-test',
      GEOHUB_QUEUE_URL: `http://127.0.0.1:${port}/q`,
      GEOHUB_DLQ_URL: `http://127.0.0.1:${port}/d`,
      GEOHUB_ENDPOINT_SFN: `http://127.0.0.1:${port}`,
      GEOHUB_STATE_MACHINE_ARN: 'arn:aws:states:us-east-1:000000000000:stateMachine:geohub-test',
      GEOHUB_REQUEST_TIMEOUT_MS: '300',
      GEOHUB_MAX_ATTEMPTS: '2',
    });
    const started = Date.now();
    const error = await deps
      .starter()
      .start('never-answered', { bucket: 'b', key: 'k' })
      .catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    deps.clients.destroy();
    expect((error as Error).name).toBe('TimeoutError');
    expect((error as { $metadata?: { attempts?: number } }).$metadata?.attempts).toBe(2);
    expect(elapsed).toBeLessThan(20_000); // 2 attempts × 300 ms plus back-off, not forever (slack for load)
  });
});

describe('a long poll is not cut off by the request timeout', () => {
  it('a receive whose wait exceeds the request timeout returns empty after its wait instead of throwing', async () => {
    const { config, clients } = stackClients();
    const bounded = createAwsClients({ ...config, requestTimeoutMs: 500, maxAttempts: 1 });
    const { QueueUrl } = await clients.sqs.send(new CreateQueueCommand({ QueueName: `poll-${Date.now()}` }));
    const queue = createSqsQueue(bounded.sqs, QueueUrl!, { requestTimeoutMs: 500 });
    const started = Date.now();
    const messages = await queue.receive(1, 2, 30);
    const elapsed = Date.now() - started;
    bounded.destroy();
    clients.destroy();
    expect(messages).toEqual([]);
    expect(elapsed).toBeGreaterThanOrEqual(1_900); // it did wait, well past the 500 ms timeout
  });
});
