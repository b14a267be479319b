import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, DeleteQueueCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseTileMessage, type TileMessage } from '../../../lib/model/message.js';
import { stackClients } from '../../support/stack-clients.js';

/** Split then enqueue through both Lambda handlers, as the state machine calls them. */

const { config, clients, env, store } = stackClients();
const savedEnv = { ...process.env };
const queues: string[] = [];
type Handler = (event: unknown, context: object) => Promise<unknown>;
let splitHandler: Handler;
let enqueueHandler: Handler;
let workQueue: string;

beforeAll(async () => {
  const id = randomUUID().slice(0, 8);
  const dlq = (await clients.sqs.send(new CreateQueueCommand({ QueueName: `h-${id}-dlq` }))).QueueUrl!;
  workQueue = (await clients.sqs.send(new CreateQueueCommand({ QueueName: `h-${id}-work` }))).QueueUrl!;
  queues.push(workQueue, dlq);
  Object.assign(process.env, env, { GEOHUB_QUEUE_URL: workQueue, GEOHUB_DLQ_URL: dlq });
  // A cold start, as on AWS: the handler reads this environment, not a module cached by another file.
  vi.resetModules();
  splitHandler = (await import('../../../functions/split.js')).handler as Handler;
  enqueueHandler = (await import('../../../functions/enqueue.js')).handler as Handler;
});
afterAll(async () => {
  for (const name of Object.keys(env)) delete process.env[name];
  Object.assign(process.env, savedEnv);
  for (const QueueUrl of queues) await clients.sqs.send(new DeleteQueueCommand({ QueueUrl }));
  clients.destroy();
});

describe('enqueue handler', () => {
  it('loops on its cursor until done, sending every sub-tile of the split', async () => {
    const key = `incoming/${randomUUID()}/shade.tif`;
    const path = new URL('../../../examples/raster/shade.tif', import.meta.url).pathname;
    const put = await store.putFile(key, path);
    const split = (await splitHandler(
      { source: { bucket: config.bucket, key, version: put.versionId ?? put.etag }, params: { zoom: 16 } },
      {},
    )) as { total: number; manifest: unknown };
    expect(split.total).toBe(256);

    let state: { cursor: unknown; done: boolean; sent: number } = { cursor: null, done: false, sent: 0 };
    while (!state.done) {
      state = (await enqueueHandler({ manifest: split.manifest, cursor: state.cursor }, {})) as typeof state;
    }
    expect(state).toMatchObject({ done: true, cursor: null, sent: 256 });
    // What is on the queue, read back: the queue's approximate count lags a send (on AWS as in the
    // stand-in, which counts a message only once its zero delay has elapsed), so it proves nothing.
    const messages: TileMessage[] = [];
    for (;;) {
      const { Messages = [] } = await clients.sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: workQueue,
          MaxNumberOfMessages: 10,
          VisibilityTimeout: 300,
          WaitTimeSeconds: 1,
        }),
      );
      if (Messages.length === 0) break;
      for (const m of Messages) {
        const parsed = parseTileMessage(m.Body);
        if (!parsed.ok) throw new Error(parsed.reason);
        messages.push(parsed.message);
      }
    }
    expect(messages).toHaveLength(16);
    expect(new Set(messages.map((m) => m.runId)).size).toBe(1);
    const tiles = messages.flatMap((m) => m.tiles.map((t) => `${t.z}/${t.x}/${t.y}`));
    expect(tiles).toHaveLength(256);
    expect(new Set(tiles).size).toBe(256);
  });

  it('rejects a cursor that does not fit the manifest', async () => {
    const manifest = { runId: 'r-0123456789abcdef0123', total: 0, parts: [] };
    const error = await enqueueHandler({ manifest, cursor: { part: 3, offset: 0, sent: 0 } }, {}).catch(
      (e) => e,
    );
    expect((error as Error).name).toBe('InvalidEnqueueRequestError');
    expect((error as Error).message).toBe('invalid enqueue request: cursor.part: no part 3 in the manifest');
  });
});
