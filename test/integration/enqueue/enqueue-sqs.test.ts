import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, DeleteQueueCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, it } from 'vitest';
import { enqueueChunk } from '../../../lib/enqueue/enqueue-chunk.js';
import type { EnqueueCursor } from '../../../lib/enqueue/enqueue-request.js';
import { allManifestMetatiles } from '../../../lib/manifest/walk-manifest.js';
import { parseTileMessage } from '../../../lib/model/message.js';
import { metatileLayouts } from '../../../lib/operations/metatile-layout.js';
import { createSqsQueue } from '../../../lib/queue/sqs-queue.js';
import { split } from '../../../lib/split/split.js';
import { stackClients } from '../../support/stack-clients.js';

const { config, clients, ledger, store } = stackClients();
const queues: string[] = [];
afterAll(async () => {
  for (const QueueUrl of queues) await clients.sqs.send(new DeleteQueueCommand({ QueueUrl }));
  clients.destroy();
});

/** A private queue pair, so this test neither sees nor leaves messages in the suite's work queue. */
async function privateQueue() {
  const id = randomUUID().slice(0, 8);
  const dlq = (await clients.sqs.send(new CreateQueueCommand({ QueueName: `enq-${id}-dlq` }))).QueueUrl!;
  const url = (await clients.sqs.send(new CreateQueueCommand({ QueueName: `enq-${id}-work` }))).QueueUrl!;
  queues.push(url, dlq);
  return { url, dlq };
}

/** Every message in the queue, received once (hidden for the rest of the test). */
async function drain(url: string): Promise<string[]> {
  const bodies: string[] = [];
  for (let empty = 0; empty < 3; ) {
    const r = await clients.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: url,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 0,
        VisibilityTimeout: 600,
      }),
    );
    const got = r.Messages ?? [];
    empty = got.length === 0 ? empty + 1 : 0;
    bodies.push(...got.map((m) => m.Body!));
  }
  return bodies;
}

describe('enqueue to the local SQS', () => {
  it('turns a manifest of a few thousand sub-tiles into the right number of messages, every tile once', async () => {
    const key = `incoming/${randomUUID()}/shade.tif`;
    const put = await store.putFile(
      key,
      new URL('../../../examples/raster/shade.tif', import.meta.url).pathname,
    );
    const result = await split(
      { source: { bucket: config.bucket, key, version: put.versionId ?? put.etag }, params: { zoom: 18 } },
      { store, ledger, partLines: 100 },
    );
    expect(result.total).toBeGreaterThan(4000);
    const lines = (await allManifestMetatiles(store, result.runId)).length;
    expect(result.manifest.parts.length).toBe(Math.ceil(lines / 100));

    const { url, dlq } = await privateQueue();
    const queue = createSqsQueue(clients.sqs, url, { deadLetterQueueUrl: dlq });
    let cursor: EnqueueCursor | null = null;
    let calls = 0;
    for (let done = false; !done; calls += 1) {
      const r = await enqueueChunk(result.manifest, cursor, { store, queue, maxMessagesPerCall: 40 });
      ({ cursor, done } = r);
      expect(r.messages).toBeLessThanOrEqual(40);
    }

    const bodies = await drain(url);
    // One message per metatile line of the manifest (split's 4×4 blocks, fewer tiles at the
    // cover's edges): each one rectangle, one GDAL process.
    expect(bodies.length).toBe(lines);
    expect(bodies.length).toBeGreaterThanOrEqual(Math.ceil(result.total / 16));
    expect(calls).toBe(Math.ceil(bodies.length / 40));
    const ids = bodies.flatMap((b) => {
      const parsed = parseTileMessage(b);
      if (!parsed.ok) throw new Error(parsed.reason);
      expect(parsed.message.runId).toBe(result.runId);
      expect(parsed.message.tiles.length).toBeLessThanOrEqual(16);
      expect(metatileLayouts(parsed.message.tiles)).toHaveLength(1);
      return parsed.message.tiles.map((t) => t.id);
    });
    expect(ids).toHaveLength(result.total);
    expect(new Set(ids).size).toBe(result.total);
  });
});
