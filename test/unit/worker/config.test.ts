import { describe, expect, it } from 'vitest';
import { loadWorkerConfig } from '../../../worker/config.js';

describe('loadWorkerConfig: the long poll fits the stop grace', () => {
  it('keeps SQS’s 20 s poll under the production grace, and shortens it under a short one', () => {
    // A poll is never aborted at a SIGTERM (worker-loop.ts), so it must end inside the grace.
    // The bug this catches: a 20 s poll under a 3 s grace, cut by ECS's SIGKILL, its message lost
    // to a lease of invisibility.
    expect(loadWorkerConfig({}).receiveWaitSeconds).toBe(20);
    expect(loadWorkerConfig({ GEOHUB_STOP_GRACE_MS: '3000' }).receiveWaitSeconds).toBe(1);
    expect(
      loadWorkerConfig({ GEOHUB_STOP_GRACE_MS: '1000', GEOHUB_RECEIVE_WAIT_S: '5' }).receiveWaitSeconds,
    ).toBe(0);
    expect(loadWorkerConfig({ GEOHUB_RECEIVE_WAIT_S: '1' }).receiveWaitSeconds).toBe(1);
  });
});
