import type { SendResult, WorkQueue } from '../../../../lib/queue/work-queue.js';

/** A WorkQueue that records sent bodies; `failWith` decides, per call, which entries fail. */
export function createFakeQueue(
  failWith?: (bodies: readonly string[], call: number) => SendResult['failed'],
) {
  const sent: string[] = [];
  const batchSizes: number[] = [];
  let calls = 0;
  const notHere = () => Promise.reject(new Error('not implemented in the fake queue'));
  const queue: WorkQueue = {
    async sendBatch(bodies) {
      calls += 1;
      batchSizes.push(bodies.length);
      const failed = failWith?.(bodies, calls) ?? [];
      const failedIndexes = new Set(failed.map((f) => f.index));
      bodies.forEach((b, i) => {
        if (!failedIndexes.has(i)) sent.push(b);
      });
      return { sent: bodies.length - failed.length, failed };
    },
    receive: notHere,
    setVisibility: notHere,
    delete: notHere,
    deleteBatch: notHere,
    requeue: notHere,
    deadLetter: notHere,
    depth: notHere,
  };
  return { queue, sent, batchSizes };
}
