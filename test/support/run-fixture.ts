import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { CreateQueueCommand, GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { createAdapters } from '../../lib/adapters/create-adapters.js';
import type { AwsClients } from '../../lib/aws/clients.js';
import type { Config } from '../../lib/config/config.js';
import type { Ledger } from '../../lib/ledger/ledger.js';
import { listTiles } from '../../lib/ledger/tile-records.js';
import { tileIdFor } from '../../lib/model/ids.js';
import { metatileMessage } from '../../lib/model/message.js';
import type { OperationName, TileRecord } from '../../lib/model/run.js';
import type { TileTask } from '../../lib/model/tile.js';
import type { WorkQueue } from '../../lib/queue/work-queue.js';
import type { ObjectStore } from '../../lib/store/object-store.js';

export interface Fixture {
  readonly ledger: Ledger;
  readonly store: ObjectStore;
  readonly queue: WorkQueue;
  /** Environment overrides pointing a worker at this fixture's private queues. */
  readonly env: Record<string, string>;
  readonly queueUrl: string;
  readonly dlqUrl: string;
}

/** A private work queue and DLQ (same redrive settings as serverless.yml) so tests never share messages. */
export async function createFixture(
  config: Config,
  clients: AwsClients,
  maxReceiveCount = 3,
): Promise<Fixture> {
  const id = randomUUID().slice(0, 8);
  const dlq = await clients.sqs.send(new CreateQueueCommand({ QueueName: `w-${id}-dlq` }));
  const dlqArn = (
    await clients.sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl!, AttributeNames: ['QueueArn'] }),
    )
  ).Attributes!.QueueArn!;
  const main = await clients.sqs.send(
    new CreateQueueCommand({
      QueueName: `w-${id}-work`,
      Attributes: {
        VisibilityTimeout: '60',
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount }),
      },
    }),
  );
  const { ledger, store, queue } = createAdapters(
    { ...config, queueUrl: main.QueueUrl!, deadLetterQueueUrl: dlq.QueueUrl! },
    { clients },
  );
  return {
    ledger,
    store,
    queue,
    env: { GEOHUB_QUEUE_URL: main.QueueUrl!, GEOHUB_DLQ_URL: dlq.QueueUrl! },
    queueUrl: main.QueueUrl!,
    dlqUrl: dlq.QueueUrl!,
  };
}

export interface SeededRun {
  readonly runId: string;
  readonly tasks: TileTask[];
  readonly sourceKey: string;
}

/** Uploads the source files and records a RUNNING run over the given tiles, as split would. */
export async function seedRun(
  fixture: Fixture,
  files: readonly string[],
  tiles: readonly { z: number; x: number; y: number }[],
  operation: OperationName = 'raster-xyz',
  params: Record<string, unknown> = {},
): Promise<SeededRun> {
  const runId = `r-test-${randomUUID().slice(0, 12)}`;
  const prefix = `incoming/${runId}`;
  const heads = [];
  for (const file of files) heads.push(await fixture.store.putFile(`${prefix}/${basename(file)}`, file));
  const sourceKey = `${prefix}/${basename(files[0]!)}`;
  // As the upload's S3 event gives it (unversioned bucket): reads are pinned to this ETag.
  const etag = heads[0]!.etag.replace(/"/g, '');
  const paramsVersion = 'v1';
  await fixture.ledger.createRun({
    runId,
    status: 'RUNNING',
    source: { bucket: fixture.store.bucket, key: sourceKey, version: etag, etag },
    operation,
    params,
    paramsVersion,
    total: tiles.length,
  });
  const tasks = tiles.map((t) => ({ id: tileIdFor(runId, operation, paramsVersion, t), ...t }));
  return { runId, tasks, sourceKey };
}

/** Sends the run's sub-tiles, `perMessage` to a message. */
export async function enqueueTiles(
  fixture: Fixture,
  runId: string,
  tasks: readonly TileTask[],
  perMessage = 1,
) {
  const bodies: string[] = [];
  for (let i = 0; i < tasks.length; i += perMessage) {
    bodies.push(metatileMessage(runId, { tiles: tasks.slice(i, i + perMessage) }));
  }
  const r = await fixture.queue.sendBatch(bodies);
  if (r.failed.length > 0) throw new Error(`could not enqueue: ${JSON.stringify(r.failed)}`);
}

/** Every sub-tile record of a run, by id. */
export async function tileStates(ledger: Ledger, runId: string) {
  const out = new Map<string, TileRecord>();
  for await (const t of listTiles(ledger, runId)) out.set(t.tileId, t);
  return out;
}
