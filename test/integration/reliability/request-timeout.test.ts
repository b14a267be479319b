import { createServer, type Socket } from 'node:net';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { createAwsClients } from '../../../lib/aws/clients.js';
import { loadConfig } from '../../../lib/config/config.js';

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
    expect(elapsed).toBeLessThan(5_000); // 2 attempts × 300 ms plus back-off, not forever
  });
});
