import { describe, expect, it } from 'vitest';
import { PROBE_STEPS, probeSeconds, sampleSpeed } from '../../../../bench/support/cpu-speed.js';

describe('the speed probe', () => {
  it('times the whole loop on the clock it is given, and sums every step', () => {
    const ticks = [1_000, 3_150];
    const { seconds, sum } = probeSeconds(() => ticks.shift()!);
    expect(seconds).toBe(2.15);
    // Past 2^53 the float sum rounds: equal to the series' to eight digits.
    expect(Math.abs(sum / ((PROBE_STEPS * (PROBE_STEPS - 1)) / 2) - 1)).toBeLessThan(1e-8);
  });

  it('keeps each sample: at its start and at each sample() call', () => {
    const times = [1.6, 2.6, 2.1];
    const speed = sampleSpeed(() => times.shift()!);
    speed.sample();
    speed.sample();
    expect(speed.summary()).toEqual({ median: 2.1, min: 1.6, max: 2.6, runs: 3 });
  });
});
