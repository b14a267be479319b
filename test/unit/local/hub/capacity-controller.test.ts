import { describe, expect, it } from 'vitest';
import { startCapacityController } from '../../../../local/hub/capacity-controller.js';
import type { WorkerPool } from '../../../../local/pool/worker-pool.js';
import { createMemoryLedger } from '../../../support/memory-ledger.js';

describe('startCapacityController', () => {
  it('stops at once, without waiting out the interval between its checks', async () => {
    const modes: string[] = [];
    const pool = { setCapacity: (mode: string) => modes.push(mode) } as unknown as WorkerPool;
    // An hour between checks: a stop that waited for the next one would outlive the test's timeout.
    const controller = startCapacityController(
      { ledger: createMemoryLedger(), pool },
      { everyMs: 3_600_000 },
    );
    await expect.poll(() => modes.length).toBe(1);
    await controller.stop();
    expect(modes).toEqual(['spot']);
  });
});
