import { ManifestCorruptError } from '../manifest/errors.js';
import { enqueuedTiles, type ManifestRef } from '../manifest/manifest-ref.js';
import { readManifestChunk } from '../manifest/read-manifest-chunk.js';
import { metatileMessage } from '../model/message.js';
import type { WorkQueue } from '../queue/work-queue.js';
import type { ObjectStore } from '../store/object-store.js';
import type { EnqueueCursor } from './enqueue-request.js';
import { sendBodies } from './send-bodies.js';

export interface EnqueueDeps {
  readonly store: ObjectStore;
  readonly queue: WorkQueue;
  /** Messages per call: bounds the call's memory and time (the state machine loops). */
  readonly maxMessagesPerCall?: number;
  /** SendMessageBatch calls in flight at once. */
  readonly concurrency?: number;
  readonly signal?: AbortSignal;
}

export interface EnqueueResult {
  /** Where the next call starts; null when every sub-tile has been sent. */
  readonly cursor: EnqueueCursor | null;
  readonly done: boolean;
  /** Sub-tiles sent by all calls so far, and the run's total. */
  readonly sent: number;
  readonly total: number;
  /** What this call sent. */
  readonly messages: number;
  readonly tiles: number;
}

/**
 * 2,000 messages of 16 tiles = 32,000 sub-tiles a call: 200 SendMessageBatch calls, a few
 * seconds with 8 in flight, and about 2 MB of manifest in memory. A million sub-tiles take 32 calls.
 */
export const DEFAULT_MAX_MESSAGES_PER_CALL = 2_000;
export const DEFAULT_SEND_CONCURRENCY = 8;

/**
 * Sends the next chunk of a run's metatiles to the work queue: reads the manifest from the cursor
 * by ranged GETs, one message per metatile line, sends them in batches of ten, and returns the
 * cursor after the last line sent. Memory and time per call are bounded by `maxMessagesPerCall`,
 * whatever the size of the run.
 */
export async function enqueueChunk(
  manifest: ManifestRef,
  cursor: EnqueueCursor | null | undefined,
  deps: EnqueueDeps,
): Promise<EnqueueResult> {
  const maxMessages = Math.max(1, deps.maxMessagesPerCall ?? DEFAULT_MAX_MESSAGES_PER_CALL);
  const concurrency = deps.concurrency ?? DEFAULT_SEND_CONCURRENCY;
  let { part, offset, sent } = cursor ?? { part: 0, offset: 0, sent: 0 };
  let messages = 0;
  let tiles = 0;

  while (part < manifest.parts.length && messages < maxMessages) {
    const current = manifest.parts[part]!;
    if (offset >= current.bytes) {
      part += 1;
      offset = 0;
      continue;
    }
    const chunk = await readManifestChunk(deps.store, current, offset, maxMessages - messages, deps.signal);
    const bodies = chunk.metatiles.map((m) => metatileMessage(manifest.runId, m));
    const taken = chunk.metatiles.reduce((n, m) => n + m.tiles.length, 0);
    await sendBodies(deps.queue, bodies, concurrency, deps.signal);
    messages += bodies.length;
    tiles += taken;
    sent += taken;
    offset = chunk.nextOffset;
  }
  // Step past an exhausted last part so `done` is reported by the call that sent the last tile.
  while (part < manifest.parts.length && offset >= manifest.parts[part]!.bytes) {
    part += 1;
    offset = 0;
  }
  const done = part >= manifest.parts.length;
  const total = enqueuedTiles(manifest);
  if (done && sent !== total) {
    throw new ManifestCorruptError(
      `run ${manifest.runId}: the manifest parts held ${sent} sub-tiles, its reference says ${total}`,
    );
  }
  return {
    cursor: done ? null : { part, offset, sent },
    done,
    sent,
    total,
    messages,
    tiles,
  };
}
