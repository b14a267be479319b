import { describe, expect, it } from 'vitest';
import type { RunCounters } from '../../../../lib/model/run.js';
import { earlyTileCopy } from '../../../../local/cli/early-tile-copy.js';

const counters = (done: number, total: number, failed = 0): RunCounters => ({
  total,
  done,
  failed,
  cancelled: 0,
  parked: 0,
  interrupted: 0,
  retried: 0,
});

describe('earlyTileCopy', () => {
  it('starts the copy once, the first time every sub-tile is done, and lets it copy the outputs when the run ends', async () => {
    const starts: Promise<void>[] = [];
    const early = earlyTileCopy(async (outputsReady) => {
      starts.push(outputsReady);
      await outputsReady;
      return 7;
    });
    early.observe(undefined);
    early.observe(counters(0, 0));
    early.observe(counters(3, 4));
    early.observe(counters(3, 4, 1));
    expect(starts).toHaveLength(0);
    early.observe(counters(4, 4));
    early.observe(counters(4, 4));
    expect(starts).toHaveLength(1);
    const copying = early.finish();
    expect(copying).toBeDefined();
    expect(await copying).toBe(7);
  });

  it('has nothing to finish when the sub-tiles never were all done', () => {
    const early = earlyTileCopy(async () => 1);
    early.observe(counters(2, 4, 2));
    expect(early.finish()).toBeUndefined();
  });

  it('abandoned, refuses the outputs to the copy started early and waits for it to stop', async () => {
    let refused: unknown;
    let stopped = false;
    const early = earlyTileCopy(async (outputsReady) => {
      try {
        await outputsReady;
        return 1;
      } catch (error) {
        refused = error;
        // Stopping takes a turn of the event loop (a download's stream closed), not a microtask.
        await new Promise((resolve) => setImmediate(resolve));
        throw error;
      } finally {
        stopped = true;
      }
    });
    early.observe(counters(4, 4));
    const reason = new Error('the up went away');
    await early.abandon(reason);
    expect(refused).toBe(reason);
    expect(stopped).toBe(true);
  });
});
