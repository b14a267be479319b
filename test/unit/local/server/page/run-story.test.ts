import { describe, expect, it } from 'vitest';
import { doneCurve } from '../../../../../local/server/page/run-story.js';

describe('doneCurve', () => {
  it('counts sub-tiles done by each completion time, from the run start', () => {
    expect(doneCurve([1_300, 1_100, 1_200], 1_000)).toEqual([
      [0, 0],
      [100, 1],
      [200, 2],
      [300, 3],
    ]);
  });

  it('keeps at most about 120 steps and always ends at the full count', () => {
    const times = Array.from({ length: 10_001 }, (_, i) => i);
    const curve = doneCurve(times, 0);
    expect(curve.length).toBeLessThanOrEqual(122);
    expect(curve.at(-1)).toEqual([10_000, 10_001]);
    for (let i = 1; i < curve.length; i += 1) expect(curve[i]![1]).toBeGreaterThan(curve[i - 1]![1]);
  });

  it('is a single origin point for a run with nothing done', () => {
    expect(doneCurve([], 5)).toEqual([[0, 0]]);
  });
});
