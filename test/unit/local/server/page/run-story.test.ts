import { describe, expect, it } from 'vitest';
import { doneCurve } from '../../../../../local/server/page/run-story.js';

describe('doneCurve', () => {
  it('counts sub-tiles done by each completion time, from the run start', () => {
    const marks: [number, number][] = [
      [1_300, 16],
      [1_100, 1],
      [1_200, 4],
    ];
    expect(doneCurve(marks, 1_000)).toEqual([
      [0, 0],
      [100, 1],
      [200, 5],
      [300, 21],
    ]);
  });

  it('keeps at most about 120 steps and always ends at the full count', () => {
    const marks = Array.from({ length: 10_001 }, (_, i): [number, number] => [i, 1]);
    const curve = doneCurve(marks, 0);
    expect(curve.length).toBeLessThanOrEqual(122);
    expect(curve.at(-1)).toEqual([10_000, 10_001]);
    for (let i = 1; i < curve.length; i += 1) expect(curve[i]![1]).toBeGreaterThan(curve[i - 1]![1]);
  });

  it('is a single origin point for a run with nothing done', () => {
    expect(doneCurve([], 5)).toEqual([[0, 0]]);
  });
});
