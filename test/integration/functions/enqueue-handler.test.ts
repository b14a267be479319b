import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, DeleteQueueCommand, GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
    const attrs = await clients.sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: workQueue, AttributeNames: ['ApproximateNumberOfMessages'] }),
    );
    expect(Number(attrs.Attributes?.ApproximateNumberOfMessages)).toBe(16);
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
