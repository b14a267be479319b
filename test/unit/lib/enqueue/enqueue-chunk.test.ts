import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { enqueueChunk } from '../../../../lib/enqueue/enqueue-chunk.js';
import type { EnqueueCursor } from '../../../../lib/enqueue/enqueue-request.js';
import { EnqueueSendError } from '../../../../lib/enqueue/errors.js';
import { ManifestCorruptError } from '../../../../lib/manifest/errors.js';
import type { ManifestRef } from '../../../../lib/manifest/manifest-ref.js';
import { LINE_BYTES } from '../../../../lib/manifest/read-manifest-chunk.js';
import { writeManifest } from '../../../../lib/manifest/write-manifest.js';
import { tileIdFor } from '../../../../lib/model/ids.js';
import { parseTileMessage } from '../../../../lib/model/message.js';
import { metatileLayouts } from '../../../../lib/operations/metatile-layout.js';
import { createSqsQueue } from '../../../../lib/queue/sqs-queue.js';
import { coverMetatiles } from '../../../../lib/split/group-metatiles.js';
import { countingStore } from '../../../support/counting-store.js';
import { createMemoryStore } from '../../../support/memory-store.js';
import { createRecordingQueue } from '../../../support/recording-queue.js';

const RUN = 'r-0123456789abcdef0123';

/** A manifest of cols × rows tiles, in metatiles of up to `tilesPerMessage`, in parts of `partLines` lines. */
async function manifestOf(cols: number, rows: number, partLines: number, tilesPerMessage = 16) {
  const memory = createMemoryStore();
  const range = { z: 14, minX: 100, maxX: 100 + cols - 1, minY: 200, maxY: 200 + rows - 1 };
  const metatiles = coverMetatiles([range], (t) => tileIdFor(RUN, 'raster-xyz', 'v', t), tilesPerMessage);
  const manifest = await writeManifest(memory, metatiles, { runId: RUN, partLines, tilesPerMessage });
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
    const { memory, manifest } = await manifestOf(23, 19, 7);
    const queue = createRecordingQueue();
    const { sent } = queue;
    let cursor: EnqueueCursor | null = null;
    let calls = 0;
    let done = false;
    while (!done) {
      const r = await enqueueChunk(manifest, cursor, { store: memory, queue, maxMessagesPerCall: 3 });
      expect(r.messages).toBeLessThanOrEqual(3);
      ({ cursor, done } = r);
      calls += 1;
      expect(calls).toBeLessThan(1000);
    }
    const tiles = tilesIn(sent);
    expect(tiles).toHaveLength(23 * 19);
    expect(new Set(tiles.map((t) => t.id)).size).toBe(23 * 19);
    // One message per manifest line, whatever the parts and calls: each is one of split's 4×4
    // blocks (23 × 19: 6 × 5 blocks), one rectangle of ≤ 16 tiles.
    const messages = sent.map((b) => tilesIn([b]));
    for (const m of messages) expect(metatileLayouts(m)).toHaveLength(1);
    expect(manifest.parts.length).toBe(5);
    expect(sent).toHaveLength(30);
  });

  it('reports done, with sent = total, on the call that sends the last tile', async () => {
    const { memory, manifest } = await manifestOf(4, 4, 100);
    const queue = createRecordingQueue();
    const { sent } = queue;
    const r = await enqueueChunk(manifest, undefined, { store: memory, queue });
    expect(r).toEqual({ cursor: null, done: true, sent: 16, total: 16, messages: 1, tiles: 16 });
    expect(sent).toHaveLength(1);
  });

  it("sends the metatiles the run's manifest lists, as split grouped them (a re-drive finds the same claims)", async () => {
    const { memory, manifest } = await manifestOf(8, 4, 100, 4);
    expect(manifest.tilesPerMessage).toBe(4);
    const queue = createRecordingQueue();
    const { sent } = queue;
    await enqueueChunk(manifest, undefined, { store: memory, queue });
    expect(sent).toHaveLength(8);
    expect(tilesIn(sent)).toHaveLength(32);
  });

  it("carries a collection metatile's members in its message", async () => {
    const memory = createMemoryStore();
    const tiles = [{ id: tileIdFor(RUN, 'raster-xyz', 'v', { z: 14, x: 1, y: 2 }), z: 14, x: 1, y: 2 }];
    const manifest = await writeManifest(memory, [{ id: '0123456789abcdef', tiles, members: [0, 7] }], {
      runId: RUN,
    });
    const queue = createRecordingQueue();
    await enqueueChunk(manifest, undefined, { store: memory, queue });
    const parsed = parseTileMessage(queue.sent[0]);
    expect(parsed.ok && parsed.message).toEqual({ v: 1, runId: RUN, tiles, members: [0, 7] });
  });

  it('sends ten entries per SendMessageBatch call', async () => {
    const { memory, manifest } = await manifestOf(20, 20, 1000, 4);
    const queue = createRecordingQueue();
    const { batchSizes } = queue;
    await enqueueChunk(manifest, undefined, { store: memory, queue });
    expect(batchSizes).toEqual(Array(10).fill(10));
  });

  it('reads a bounded slice of the manifest per call', async () => {
    const { memory, manifest } = await manifestOf(100, 100, 50_000);
    const { store, counts } = countingStore(memory);
    const queue = createRecordingQueue();
    const r = await enqueueChunk(manifest, undefined, { store, queue, maxMessagesPerCall: 10 });
    expect(r).toMatchObject({ done: false, tiles: 160, sent: 160, cursor: { part: 0, sent: 160 } });
    expect(counts.bytesRead).toBeLessThanOrEqual(10 * LINE_BYTES);
    expect(counts.wholeGets).toBe(0);
  });

  it('treats entries that still failed after the adapter retries as an error, and a retry resends the chunk', async () => {
    const { memory, manifest } = await manifestOf(8, 8, 100, 4);
    const queue = createRecordingQueue((_, call) =>
      call === 1 ? [{ index: 2, reason: 'InternalError: boom' }] : [],
    );
    const error = await enqueueChunk(manifest, undefined, { store: memory, queue }).catch((e) => e);
    expect(error).toBeInstanceOf(EnqueueSendError);
    expect((error as Error).message).toBe(
      '1 of 16 messages were not sent after retries (InternalError: boom); the chunk will be sent again',
    );
    const retry = await enqueueChunk(manifest, undefined, { store: memory, queue });
    expect(retry.done).toBe(true);
  });

  it('fails when the parts do not hold the sub-tiles the reference claims', async () => {
    const { memory, manifest } = await manifestOf(4, 4, 100);
    const [first, ...rest] = manifest.parts;
    const lying: ManifestRef = {
      ...manifest,
      total: manifest.total + 1,
      parts: [{ ...first!, tiles: first!.tiles + 1 }, ...rest],
    };
    const queue = createRecordingQueue();
    await expect(enqueueChunk(lying, undefined, { store: memory, queue })).rejects.toThrow(
      ManifestCorruptError,
    );
  });
});

describe('enqueueChunk through the SQS adapter (error branch, mocked SDK)', () => {
  const sqs = mockClient(SQSClient);
  afterEach(() => sqs.reset());

  it('fails when SQS rejects an entry as the sender’s fault (not retried by the adapter)', async () => {
    const { memory, manifest } = await manifestOf(4, 4, 100, 4);
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
    await expect(enqueueChunk(manifest, undefined, { store: memory, queue })).rejects.toThrow(
      '1 of 4 messages were not sent after retries (InvalidParameterValue: too big); the chunk will be sent again',
    );
  });
});
