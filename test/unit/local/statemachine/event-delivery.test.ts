import { describe, expect, it } from 'vitest';
import { bestEffortDelivery } from '../../../../local/statemachine/event-delivery.js';
import type { ExecutionStatusEvent } from '../../../../local/statemachine/local-executions.js';

const event: ExecutionStatusEvent = {
  detail: { executionArn: 'arn:x', status: 'ABORTED', input: '{}' },
};

describe('EventBridge delivery, best-effort', () => {
  it('delivers at once with no fault', async () => {
    const got: ExecutionStatusEvent[] = [];
    const d = bestEffortDelivery(async (e) => void got.push(e), { lost: 0, late: 0, lateMs: 0 }, Math.random);
    await d.deliver(event);
    expect(got).toEqual([event]);
  });

  it('loses an event: the target is never called', async () => {
    const faults: string[] = [];
    let called = false;
    const d = bestEffortDelivery(
      async () => {
        called = true;
      },
      { lost: 1, late: 0, lateMs: 0 },
      () => 0,
      (k) => faults.push(k),
    );
    await d.deliver(event);
    expect([called, faults]).toEqual([false, ['EventLost']]);
  });

  it('delivers a late event after deliver() has returned, on its own time', async () => {
    let delivered: (e: ExecutionStatusEvent) => void = () => {};
    const arrived = new Promise<ExecutionStatusEvent>((resolve) => {
      delivered = resolve;
    });
    let returned = false;
    const d = bestEffortDelivery(
      async (e) => {
        expect(returned).toBe(true);
        delivered(e);
      },
      { lost: 0, late: 1, lateMs: 50 },
      () => 0.5,
    );
    await d.deliver(event);
    returned = true;
    await expect(arrived).resolves.toBe(event);
  });

  it('drops the late events still waiting when closed', async () => {
    let called = false;
    const d = bestEffortDelivery(
      async () => {
        called = true;
      },
      { lost: 0, late: 1, lateMs: 0 },
      () => 0.5,
    );
    await d.deliver(event);
    d.close();
    // Its timer (0 ms) was set before this one: it would have fired first.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(called).toBe(false);
  });
});
