import type { ReceivedMessage, SendResult, WorkQueue } from '../../lib/queue/work-queue.js';

export interface RecordingQueue extends WorkQueue {
  /** What was done to which message, in order: `delete m1`, `requeue m1`, `visibility m1 30`, … */
  readonly actions: string[];
  /** The bodies sendBatch accepted, in order. */
  readonly sent: string[];
  /** The number of bodies of each sendBatch call. */
  readonly batchSizes: number[];
}

/**
 * A WorkQueue that only records what is done to its messages (for unit tests); `failWith`
 * decides, per sendBatch call (1, 2, …), which entries fail.
 */
export function createRecordingQueue(
  failWith?: (bodies: readonly string[], call: number) => SendResult['failed'],
): RecordingQueue {
  const actions: string[] = [];
  const sent: string[] = [];
  const batchSizes: number[] = [];
  return {
    actions,
    sent,
    batchSizes,
    async receive() {
      return [];
    },
    async setVisibility(m, seconds) {
      actions.push(`visibility ${m.id} ${seconds}`);
    },
    async delete(m) {
      actions.push(`delete ${m.id}`);
    },
    async deleteBatch(messages) {
      actions.push(`delete-batch ${messages.map((m) => m.id).join(',')}`);
    },
    async sendBatch(bodies) {
      actions.push(`send ${bodies.length}`);
      batchSizes.push(bodies.length);
      const failed = failWith?.(bodies, batchSizes.length) ?? [];
      const failedIndexes = new Set(failed.map((f) => f.index));
      for (const [i, body] of bodies.entries()) if (!failedIndexes.has(i)) sent.push(body);
      return { sent: bodies.length - failed.length, failed };
    },
    async requeue(m, options) {
      actions.push(options?.delaySeconds ? `requeue ${m.id} ${options.delaySeconds}` : `requeue ${m.id}`);
    },
    async deadLetter(m, reason) {
      actions.push(`dead-letter ${m.id} ${reason}`);
    },
    async depth() {
      return { visible: 0, inFlight: 0 };
    },
  };
}

/** A message as SQS delivers it. */
export function received(body: unknown, receiveCount = 1, id = 'm1'): ReceivedMessage {
  return {
    id,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    receiptHandle: `rh-${id}`,
    receiveCount,
  };
}
