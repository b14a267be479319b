import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { batchedDeletes } from '../../../worker/batched-deletes.js';
import { createRecordingQueue, received } from '../../support/recording-queue.js';

const log = pino({ level: 'silent' });
const messages = (n: number) => Array.from({ length: n }, (_, i) => received('{}', 1, `m${i}`));

describe('batchedDeletes', () => {
  it('sends ten deletes as one request, the rest on flush', async () => {
    const inner = createRecordingQueue();
    const deletes = batchedDeletes(inner, log, 60_000);
    for (const m of messages(12)) await deletes.queue.delete(m);
    expect(inner.actions).toEqual(['delete-batch m0,m1,m2,m3,m4,m5,m6,m7,m8,m9']);
    await deletes.flush();
    expect(inner.actions).toEqual(['delete-batch m0,m1,m2,m3,m4,m5,m6,m7,m8,m9', 'delete-batch m10,m11']);
    await deletes.flush();
    expect(inner.actions).toHaveLength(2);
  });

  it('a lone delete goes out after its maximum age, well before its message could return', async () => {
    const inner = createRecordingQueue();
    const deletes = batchedDeletes(inner, log, 50);
    await deletes.queue.delete(received('{}', 1, 'only'));
    expect(inner.actions).toEqual([]);
    await new Promise((r) => setTimeout(r, 200));
    expect(inner.actions).toEqual(['delete-batch only']);
  });

  it('everything else passes straight through to the queue', async () => {
    const inner = createRecordingQueue();
    const deletes = batchedDeletes(inner, log, 60_000);
    await deletes.queue.requeue(received('{}', 2, 'r'));
    await deletes.queue.setVisibility(received('{}', 1, 'v'), 30);
    expect(inner.actions).toEqual(['requeue r', 'visibility v 30']);
  });
});
