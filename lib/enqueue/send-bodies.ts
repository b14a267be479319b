import type { WorkQueue } from '../queue/work-queue.js';
import { EnqueueSendError } from './errors.js';

/** Entries per SendMessageBatch: SQS's limit. */
export const SQS_BATCH = 10;

/**
 * Sends bodies in SQS batches of ten, `concurrency` batches at a time. The adapter retries
 * entries that fail; whatever still failed afterwards is an EnqueueSendError, so the state
 * machine retries the chunk (duplicates are harmless: workers skip sub-tiles already done).
 */
export async function sendBodies(
  queue: Pick<WorkQueue, 'sendBatch'>,
  bodies: readonly string[],
  concurrency: number,
  signal?: AbortSignal,
): Promise<void> {
  const failed: { index: number; reason: string }[] = [];
  let next = 0;
  const lane = async () => {
    while (next < bodies.length) {
      const start = next;
      next += SQS_BATCH;
      const result = await queue.sendBatch(bodies.slice(start, start + SQS_BATCH), { signal });
      for (const f of result.failed) failed.push({ index: start + f.index, reason: f.reason });
    }
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(concurrency, Math.ceil(bodies.length / SQS_BATCH))) }, lane),
  );
  if (failed.length > 0) {
    const reasons = [...new Set(failed.map((f) => f.reason))].slice(0, 3).join('; ');
    throw new EnqueueSendError(
      `${failed.length} of ${bodies.length} messages were not sent after retries (${reasons}); the chunk will be sent again`,
    );
  }
}
