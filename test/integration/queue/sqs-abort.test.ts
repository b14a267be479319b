import { describe, it } from 'vitest';
import { createSqsQueue } from '../../../lib/queue/sqs-queue.js';
import type { ReceivedMessage, WorkQueue } from '../../../lib/queue/work-queue.js';
import {
  expectBoundedByTimeout,
  itAbandonsEachOnCancel,
  NO_TIMEOUT_MS,
  useHungEndpoints,
} from '../../support/hung-endpoint.js';

const { config, hung } = useHungEndpoints();

/** The work queue with every SQS request going to a TCP stand-in that accepts and never answers. */
async function hungQueue(requestTimeoutMs: number) {
  const { proxy, aws } = await hung('sqs', requestTimeoutMs);
  const queue = createSqsQueue(aws.sqs, config.queueUrl, {
    deadLetterQueueUrl: config.deadLetterQueueUrl,
    requestTimeoutMs,
  });
  return { proxy, queue };
}

const message: ReceivedMessage = { id: 'm-1', body: '{}', receiptHandle: 'rh-1', receiveCount: 1 };

// Every call of the WorkQueue: each fails if the adapter stops handing the cancel signal to the
// SDK. The receive is a 20 s long poll, as the worker makes it: the cancel, not the wait, ends it.
const CALLS: readonly [string, (q: WorkQueue, signal: AbortSignal) => Promise<unknown>][] = [
  ['receive (a 20 s long poll)', (q, signal) => q.receive(1, 20, 60, { signal })],
  ['setVisibility (the heartbeat)', (q, signal) => q.setVisibility(message, 60, { signal })],
  ['delete', (q, signal) => q.delete(message, { signal })],
  ['deleteBatch', (q, signal) => q.deleteBatch([message], { signal })],
  ['sendBatch (the enqueue)', (q, signal) => q.sendBatch(['{}'], { signal })],
  ['requeue', (q, signal) => q.requeue(message, { signal })],
  ['deadLetter', (q, signal) => q.deadLetter(message, 'bad', { signal })],
  ['depth (GetQueueAttributes)', (q, signal) => q.depth({ signal })],
];

describe('every SQS call is bounded and abandoned on cancel (issue 35)', () => {
  itAbandonsEachOnCancel('SQS', CALLS, async () => {
    const { proxy, queue } = await hungQueue(NO_TIMEOUT_MS);
    return { proxy, client: queue };
  });

  it('without a cancel, the request timeout bounds a delete and closes its socket', async () => {
    const { proxy, queue } = await hungQueue(1_000);
    await expectBoundedByTimeout(proxy, () => queue.delete(message), 1_000);
  }, 60_000);

  it('a long poll is bounded by its wait plus the request timeout, not left open', async () => {
    const { proxy, queue } = await hungQueue(1_000);
    // 1 s of wait + 1 s of timeout: not before.
    await expectBoundedByTimeout(proxy, () => queue.receive(1, 1, 60), 2_000);
  }, 60_000);
});
