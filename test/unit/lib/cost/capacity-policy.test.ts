import { describe, expect, it } from 'vitest';
import { capacityCost, FARGATE_PRICES } from '../../../../lib/cost/capacity-cost.js';
import { createCapacityPolicy } from '../../../../lib/cost/capacity-policy.js';
import { breakEvenRate, DEFAULT_SPOT_ASSUMPTIONS, spotCost } from '../../../../lib/cost/spot-cost.js';

describe('the break-even interruption rate of the spot cost model', () => {
  it('is where checkpointed spot costs what on-demand costs (the seed’s inputs: 2/3)', () => {
    const r = breakEvenRate(DEFAULT_SPOT_ASSUMPTIONS);
    expect(r).toBeCloseTo(2 / 3, 10);
    const at = spotCost(r);
    expect(at.spotCheckpointed).toBeCloseTo(at.onDemand, 10);
    expect(spotCost(r - 0.01).spotCheckpointed).toBeLessThan(at.onDemand);
    expect(spotCost(r + 0.01).spotCheckpointed).toBeGreaterThan(at.onDemand);
  });

  it('falls when an interruption costs more than a sub-tile (short sub-tiles, slow restarts)', () => {
    const short = breakEvenRate({
      ...DEFAULT_SPOT_ASSUMPTIONS,
      subTileMinutes: 0.25 / 60,
      restartMinutes: 1.5 / 60,
    });
    expect(short).toBeLessThan(0.3);
    expect(
      spotCost(short, { ...DEFAULT_SPOT_ASSUMPTIONS, subTileMinutes: 0.25 / 60, restartMinutes: 1.5 / 60 })
        .spotCheckpointed,
    ).toBeCloseTo(DEFAULT_SPOT_ASSUMPTIONS.onDemandPerJob, 10);
    expect(breakEvenRate({ ...DEFAULT_SPOT_ASSUMPTIONS, spotRatio: 1 })).toBe(0);
  });
});

describe('spot → on-demand fallback policy', () => {
  const at = (s: number) => s * 1000;
  const sample = (s: number, done: number, interrupted: number) => ({
    at: at(s),
    done,
    interrupted,
    subTileSeconds: 4 * 60,
  });

  it('stays on spot below the break-even rate, goes on-demand above it, and back once it falls below half', () => {
    const policy = createCapacityPolicy({ windowMs: at(10), minAttempts: 10, hysteresis: 0.5 });
    expect(policy.update(sample(0, 0, 0)).mode).toBe('spot');
    // 5 of 20 attempts interrupted in the window: 25 %, far below 69 %.
    expect(policy.update(sample(10, 15, 5))).toMatchObject({ mode: 'spot', rate: 0.25, attempts: 20 });
    // The next window: 24 of 30 interrupted (80 %).
    const out = policy.update(sample(20, 21, 29));
    expect(out).toMatchObject({ mode: 'on-demand', rate: 0.8 });
    expect(out.switched).toMatchObject({ from: 'spot', to: 'on-demand', rate: 0.8 });
    // Between half the break-even rate and the break-even rate: stays on-demand (no flapping).
    expect(policy.update(sample(30, 27, 33))).toMatchObject({ mode: 'on-demand', rate: 0.4 });
    // On on-demand nothing is reclaimed: the rate falls and new workers go back to spot.
    const back = policy.update(sample(40, 47, 33));
    expect(back).toMatchObject({ mode: 'spot', rate: 0 });
    expect(back.switched).toMatchObject({ from: 'on-demand', to: 'spot' });
  });

  it('does not decide on too few attempts: the window stretches back until it holds enough', () => {
    const policy = createCapacityPolicy({ windowMs: at(10), minAttempts: 10 });
    policy.update(sample(0, 0, 0));
    // 3 attempts, all interrupted: noise, not a rate to act on.
    expect(policy.update(sample(10, 0, 3))).toMatchObject({ mode: 'spot', attempts: 3 });
    // 10 attempts since the start, 9 interrupted: measured over 20 s, and acted on.
    expect(policy.update(sample(20, 1, 9))).toMatchObject({ mode: 'on-demand', attempts: 10, rate: 0.9 });
  });
});

describe('the workers’ cost by capacity', () => {
  it('prices each capacity’s time and places the mix between all-spot and all-on-demand', () => {
    const c = capacityCost({ spot: 3600, onDemand: 1800 });
    expect(c.spot).toBeCloseTo(FARGATE_PRICES.spotPerHour, 10);
    expect(c.onDemand).toBeCloseTo(FARGATE_PRICES.onDemandPerHour / 2, 10);
    expect(c.onDemandShare).toBeCloseTo(1 / 3, 10);
    expect(c.total).toBeGreaterThan(c.allSpot);
    expect(c.total).toBeLessThan(c.allOnDemand);
    expect(FARGATE_PRICES.spotPerHour / FARGATE_PRICES.onDemandPerHour).toBeGreaterThan(0.25);
    expect(FARGATE_PRICES.spotPerHour / FARGATE_PRICES.onDemandPerHour).toBeLessThan(0.4);
  });
});
