import { describe, expect, it } from 'vitest';
import { pooledRange, spread } from '../../../../../../local/server/page/render/sample-range.js';

describe('pooledRange', () => {
  it('is undefined without statistics', () => {
    expect(pooledRange([])).toBeUndefined();
  });

  it('spans the tiles extremes when they lie within 2.5 standard deviations', () => {
    const range = pooledRange([
      { min: 10, max: 20, mean: 15, stdDev: 3 },
      { min: 12, max: 22, mean: 17, stdDev: 3 },
    ]);
    expect(range).toEqual({ min: 10, max: 22 });
  });

  it('is not stretched by one outlier tile', () => {
    const tiles = Array.from({ length: 10 }, () => ({ min: 0, max: 100, mean: 50, stdDev: 10 }));
    const range = pooledRange([...tiles, { min: 0, max: 10_000, mean: 60, stdDev: 12 }])!;
    expect(range.max).toBeLessThan(100);
    expect(range.min).toBeGreaterThan(0);
  });

  it('widens a flat range so that a ramp can span it', () => {
    expect(pooledRange([{ min: 1, max: 1, mean: 1, stdDev: 0 }])).toEqual({ min: 0.5, max: 1.5 });
  });
});

describe('spread', () => {
  it('takes all of a short list and an even spread of a long one, ends included', () => {
    expect(spread([1, 2, 3], 5)).toEqual([1, 2, 3]);
    expect(spread([0, 1, 2, 3, 4, 5, 6, 7, 8], 3)).toEqual([0, 4, 8]);
  });
});
