import { describe, expect, it } from 'vitest';
import { MAX_BINS, PointBins } from '../../../../lib/pointcloud/point-bins.js';

describe('PointBins', () => {
  it('yields one mean point per non-empty bin, keeping the sub-bin position', () => {
    const bins = new PointBins([0, 0, 10, 10], 5);
    expect([bins.columns, bins.rows]).toEqual([2, 2]);
    expect(bins.add(1, 1, 100)).toBe(true);
    expect(bins.add(3, 2, 110)).toBe(true);
    expect(bins.add(9, 9, 7)).toBe(true);
    expect(bins.size).toBe(2);
    expect(bins.pointCount).toBe(3);
    expect([...bins.points()]).toEqual([
      [2, 1.5, 105],
      [9, 9, 7],
    ]);
  });

  it('ignores points outside the box or without a finite Z, and keeps the far edges', () => {
    const bins = new PointBins([0, 0, 10, 10], 5);
    expect(bins.add(-0.01, 5, 1)).toBe(false);
    expect(bins.add(5, 10.01, 1)).toBe(false);
    expect(bins.add(5, 5, Number.NaN)).toBe(false);
    expect(bins.add(10, 10, 3)).toBe(true); // on the max edge: the last bin, not a new column
    expect([...bins.points()]).toEqual([[10, 10, 3]]);
  });

  it('coarsens the bins rather than allocate more than MAX_BINS', () => {
    const bins = new PointBins([0, 0, 1e6, 1e6], 0.001);
    expect(bins.columns * bins.rows).toBeLessThanOrEqual(MAX_BINS * 1.01);
    expect(bins.binSize).toBeCloseTo(1e6 / Math.sqrt(MAX_BINS), 6);
  });

  it('refuses a box or bin size that cannot be binned', () => {
    expect(() => new PointBins([0, 0, 10, 10], 0)).toThrow(RangeError);
    expect(() => new PointBins([10, 0, 0, 10], 1)).toThrow(RangeError);
  });
});
