import { afterAll, describe, expect, it } from 'vitest';
import { createFixture } from '../../support/run-fixture.js';
import { stackClients } from '../../support/stack-clients.js';

const { config, clients } = stackClients();
afterAll(() => clients.destroy());

describe('requeue with a delay, against the SQS stand-in', () => {
  it('puts back a fresh copy that stays invisible for the delay: no receive counted meanwhile', async () => {
    const { queue } = await createFixture(config, clients);
    await queue.sendBatch(['{"held":1}']);
    const [first] = await queue.receive(1, 1, 30);
    expect(first?.receiveCount).toBe(1);
    await queue.requeue(first!, { delaySeconds: 3 });
    // Not there at once (a short poll): the copy is delayed, the original deleted.
    expect(await queue.receive(1, 0, 30)).toEqual([]);
    expect(await queue.depth()).toMatchObject({ inFlight: 0 });
    // A long poll gets it once the delay is over, as a first delivery.
    const [again] = await queue.receive(1, 10, 30);
    expect(again?.body).toBe('{"held":1}');
    expect(again?.receiveCount).toBe(1);
  }, 30_000);
});
