import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { progressNudge } from '../../../../local/hub/progress-nudge.js';

const done = (runId: string, tiles: number) => ({ msg: 'metatile done', runId, tiles });

describe('the local progress nudge', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const settled = (p: Promise<void>) => {
    let state = false;
    void p.then(() => {
      state = true;
    });
    return () => state;
  };

  it("ends the wait once the run's metatiles logged done cover what the last check left", async () => {
    const nudge = progressNudge();
    nudge.observe(done('r-a', 16)); // before this wait: already in the last check's count
    const ended = settled(nudge.wait('r-a', { accounted: 16, total: 48 }, 250));
    nudge.observe(done('r-a', 16));
    nudge.observe(done('r-b', 16)); // another run's
    nudge.observe({ msg: 'metatile claimed', runId: 'r-a', tiles: 16 });
    await vi.advanceTimersByTimeAsync(10);
    expect(ended()).toBe(false);
    nudge.observe(done('r-a', 16));
    await vi.advanceTimersByTimeAsync(0);
    expect(ended()).toBe(true);
  });

  it('waits the whole time short of the count, or on lines it cannot read', async () => {
    const nudge = progressNudge();
    const short = settled(nudge.wait('r-a', { accounted: 0, total: 64 }, 250));
    nudge.observe(done('r-a', 16));
    nudge.observe(undefined);
    nudge.observe({ msg: 'metatile done', tiles: 16 });
    await vi.advanceTimersByTimeAsync(249);
    expect(short()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(short()).toBe(true);
  });

  it("does not wait before a run's first check: it learns the totals the later waits are nudged by", async () => {
    // The bug this catches: the first check made to wait the whole poll (no totals to be nudged
    // by), so a job done inside it, a 20-tile one, finished half a second after its last marker.
    const nudge = progressNudge();
    const first = settled(nudge.wait('r-a', undefined, 250));
    const unknown = settled(nudge.wait('r-a', { accounted: 0, total: 0 }, 250));
    await vi.advanceTimersByTimeAsync(0);
    expect([first(), unknown()]).toEqual([true, true]);
  });
});
