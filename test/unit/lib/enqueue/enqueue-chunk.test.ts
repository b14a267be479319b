import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { enqueueChunk } from '../../../../lib/enqueue/enqueue-chunk.js';
import type { EnqueueCursor } from '../../../../lib/enqueue/enqueue-request.js';
import { EnqueueSendError } from '../../../../lib/enqueue/errors.js';
import { ManifestCorruptError } from '../../../../lib/manifest/errors.js';
import type { ManifestRef } from '../../../../lib/manifest/manifest-ref.js';
import { writeManifest } from '../../../../lib/manifest/write-manifest.js';
import { parseTileMessage } from '../../../../lib/model/message.js';
import { metatileLayouts } from '../../../../lib/operations/metatile-layout.js';
import { createSqsQueue } from '../../../../lib/queue/sqs-queue.js';
import { coverTiles } from '../../../../lib/tiling/cover-tiles.js';
import { countingStore } from '../../../support/counting-store.js';
import { createMemoryStore } from '../../../support/memory-store.js';
import { createRecordingQueue } from '../../../support/recording-queue.js';

const RUN = 'r-0123456789abcdef0123';

/** A manifest of cols × rows tiles in parts of `partLines` lines. */
async function manifestOf(cols: number, rows: number, partLines: number) {
  const memory = createMemoryStore();
  const range = { z: 14, minX: 100, maxX: 100 + cols - 1, minY: 200, maxY: 200 + rows - 1 };
  const manifest = await writeManifest(memory, coverTiles(range, 4), {
    runId: RUN,
    operation: 'raster-xyz',
    paramsVersion: 'v',
    partLines,
  });
  return { memory, manifest };
}

function tilesIn(bodies: readonly string[]) {
  return bodies.flatMap((b) => {
    const parsed = parseTileMessage(b);
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(parsed.message.runId).toBe(RUN);
    return parsed.message.tiles;
  });
}

describe('enqueueChunk', () => {
  it('sends every sub-tile exactly once when looped, whatever the part and call sizes', async () => {
    const { memory, manifest } = await manifestOf(23, 19, 37);
    const queue = createRecordingQueue();
    const { sent } = queue;
    let cursor: EnqueueCursor | null = null;
    let calls = 0;
    let done = false;
    while (!done) {
      const r = await enqueueChunk(manifest, cursor, {
        store: memory,
        queue,
        tilesPerMessage: 16,
        maxMessagesPerCall: 3,
      });
      expect(r.messages).toBeLessThanOrEqual(3);
      ({ cursor, done } = r);
      calls += 1;
      expect(calls).toBeLessThan(1000);
    }
    const tiles = tilesIn(sent);
    expect(tiles).toHaveLength(23 * 19);
    expect(new Set(tiles.map((t) => t.id)).size).toBe(23 * 19);
    // A message never straddles parts nor split's 4×4 blocks: each is one rectangle of ≤ 16 tiles,
    // one per block (23 × 19: 6 × 5 blocks), and a block a part boundary cuts (parts of 37 lines
    // here, 50,000 in production) in a few rectangles.
    const messages = sent.map((b) => tilesIn([b]));
    for (const m of messages) expect(metatileLayouts(m)).toHaveLength(1);
    expect(sent.length).toBeGreaterThanOrEqual(30);
    expect(sent.length).toBeLessThanOrEqual(30 + 3 * (manifest.parts.length - 1));
  });

  it('reports done, with sent = total, on the call that sends the last tile', async () => {
    const { memory, manifest } = await manifestOf(4, 4, 100);
    const queue = createRecordingQueue();
    const { sent } = queue;
    const r = await enqueueChunk(manifest, undefined, { store: memory, queue });
    expect(r).toEqual({ cursor: null, done: true, sent: 16, total: 16, messages: 1, tiles: 16 });
    expect(sent).toHaveLength(1);
  });

  it("groups as the run's manifest says, whatever the enqueue was given (a re-drive groups alike)", async () => {
    const memory = createMemoryStore();
    const range = { z: 14, minX: 100, maxX: 107, minY: 200, maxY: 203 };
    const manifest = await writeManifest(memory, coverTiles(range, 4), {
      runId: RUN,
      operation: 'raster-xyz',
      paramsVersion: 'v',
      tilesPerMessage: 4,
    });
    expect(manifest.tilesPerMessage).toBe(4);
    const queue = createRecordingQueue();
    const { sent } = queue;
    await enqueueChunk(manifest, undefined, { store: memory, queue, tilesPerMessage: 16 });
    expect(sent).toHaveLength(8);
    expect(tilesIn(sent)).toHaveLength(32);
  });

  it('sends ten entries per SendMessageBatch call', async () => {
    const { memory, manifest } = await manifestOf(20, 20, 1000);
    const queue = createRecordingQueue();
    const { batchSizes } = queue;
    await enqueueChunk(manifest, undefined, { store: memory, queue, tilesPerMessage: 4 });
    expect(batchSizes).toEqual(Array(10).fill(10));
  });

  it('reads a bounded slice of the manifest per call', async () => {
    const { memory, manifest } = await manifestOf(100, 100, 50_000);
    const { store, counts } = countingStore(memory);
    const queue = createRecordingQueue();
    const r = await enqueueChunk(manifest, undefined, {
      store,
      queue,
      tilesPerMessage: 16,
      maxMessagesPerCall: 10,
    });
    expect(r).toMatchObject({ done: false, tiles: 160, sent: 160, cursor: { part: 0, sent: 160 } });
    expect(counts.bytesRead).toBeLessThanOrEqual(160 * 64);
    expect(counts.wholeGets).toBe(0);
  });

  it('treats entries that still failed after the adapter retries as an error, and a retry resends the chunk', async () => {
    const { memory, manifest } = await manifestOf(8, 8, 100);
    const queue = createRecordingQueue((_, call) =>
      call === 1 ? [{ index: 2, reason: 'InternalError: boom' }] : [],
    );
    const error = await enqueueChunk(manifest, undefined, { store: memory, queue, tilesPerMessage: 4 }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(EnqueueSendError);
    expect((error as Error).message).toBe(
      '1 of 16 messages were not sent after retries (InternalError: boom); the chunk will be sent again',
    );
    const retry = await enqueueChunk(manifest, undefined, { store: memory, queue, tilesPerMessage: 4 });
    expect(retry.done).toBe(true);
  });

  it('fails when the parts do not hold the total the reference claims', async () => {
    const { memory, manifest } = await manifestOf(4, 4, 100);
    const lying: ManifestRef = { ...manifest, total: 17 };
    const queue = createRecordingQueue();
    await expect(enqueueChunk(lying, undefined, { store: memory, queue })).rejects.toThrow(
      ManifestCorruptError,
    );
  });

  it('rejects a message size outside the model', async () => {
    const { memory, manifest } = await manifestOf(4, 4, 100);
    const queue = createRecordingQueue();
    await expect(
      enqueueChunk(manifest, undefined, { store: memory, queue, tilesPerMessage: 17 }),
    ).rejects.toThrow(/tilesPerMessage must be an integer in 1..16/);
  });
});

describe('enqueueChunk through the SQS adapter (error branch, mocked SDK)', () => {
  const sqs = mockClient(SQSClient);
  afterEach(() => sqs.reset());

  it('fails when SQS rejects an entry as the sender’s fault (not retried by the adapter)', async () => {
    const { memory, manifest } = await manifestOf(4, 4, 100);
    sqs.on(SendMessageBatchCommand).callsFake((input: { Entries: { Id: string }[] }) => ({
      Successful: input.Entries.slice(1).map((e) => ({
        Id: e.Id,
        MessageId: `m${e.Id}`,
        MD5OfMessageBody: 'x',
      })),
      Failed: [
        { Id: input.Entries[0]!.Id, SenderFault: true, Code: 'InvalidParameterValue', Message: 'too big' },
      ],
    }));
    const queue = createSqsQueue(new SQSClient({ region: 'us-east-1' }), 'https://q/work', {
      deadLetterQueueUrl: 'https://q/dlq',
      sleep: async () => {},
    });
    await expect(
      enqueueChunk(manifest, undefined, { store: memory, queue, tilesPerMessage: 4 }),
    ).rejects.toThrow(
      '1 of 4 messages were not sent after retries (InvalidParameterValue: too big); the chunk will be sent again',
    );
  });
});
