import type { Logger } from '../lib/log/logger.js';
import type { ReceivedMessage, WorkQueue } from '../lib/queue/work-queue.js';

export interface BatchedDeletes {
  /** The queue to hand to message handling: its `delete` joins the next batch. */
  readonly queue: WorkQueue;
  /** Deletes what is pending now (before the worker exits, and on a timer). */
  flush(): Promise<void>;
}

/**
 * Deletes of finished messages, ten per DeleteMessageBatch, to keep SQS requests per sub-tile
 * low. Deferring a delete is safe because the ledger already accounts for the metatile: a message
 * that comes back before its delete lands is skipped by one read, with no tool work. A batch goes
 * out when it is full, `maxAgeMs` after its first message — well inside the visibility the
 * message still has after its last heartbeat (two thirds of the lease) — or when the worker finds
 * the queue empty (`flush`: no message to batch with soon).
 */
export function batchedDeletes(queue: WorkQueue, log: Logger, maxAgeMs: number, max = 10): BatchedDeletes {
  let pending: ReceivedMessage[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = async () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    await queue
      .deleteBatch(batch)
      .catch((e: unknown) =>
        log.warn(
          { err: e, messages: batch.length },
          'batched delete failed; those messages will be skipped when they return',
        ),
      );
  };
  return {
    flush,
    queue: {
      ...queue,
      async delete(message) {
        pending.push(message);
        if (pending.length >= max) await flush();
        else if (!timer) {
          timer = setTimeout(() => void flush(), maxAgeMs);
          timer.unref();
        }
      },
    },
  };
}
