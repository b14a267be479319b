import type { ReceivedMessage, WorkQueue } from '../../lib/queue/work-queue.js';

export interface RecordingQueue extends WorkQueue {
  /** What was done to which message, in order: `delete m1`, `requeue m1`, `visibility m1 30`, … */
  readonly actions: string[];
}

/** A WorkQueue that only records what the worker does to its messages (for unit tests). */
export function createRecordingQueue(): RecordingQueue {
  const actions: string[] = [];
  return {
    actions,
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
      return { sent: bodies.length, failed: [] };
    },
    async requeue(m) {
      actions.push(`requeue ${m.id}`);
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
