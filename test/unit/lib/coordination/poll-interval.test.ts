import { describe, expect, it } from 'vitest';
import {
  EVENTS_PER_TURN,
  MAX_POLL_SECONDS,
  MIN_POLL_SECONDS,
  pollSeconds,
  shouldHandOver,
} from '../../../../lib/coordination/poll-interval.js';

describe('the progress loop’s wait', () => {
  it('starts at the minimum and grows with the run’s age, up to the maximum', () => {
    expect(pollSeconds(0, 0, 1_000_000)).toBe(MIN_POLL_SECONDS);
    const hour = pollSeconds(3_600_000, 100_000, 1_000_000);
    expect(hour).toBeGreaterThan(MIN_POLL_SECONDS);
    expect(pollSeconds(36_000_000, 500_000, 1_000_000)).toBe(MAX_POLL_SECONDS);
  });

  it('does not wait far past the end the rate so far predicts', () => {
    // Ten hours in and 99.999 % done: at this rate the rest is due in seconds.
    expect(pollSeconds(36_000_000, 999_990, 1_000_000)).toBe(MIN_POLL_SECONDS);
  });

  it('a run of eight days checks fewer than 4,000 times, where a fixed 10 s would take 69,120 turns', () => {
    let t = 0;
    let turns = 0;
    const day = 86_400_000;
    while (t < 8 * day) {
      t += pollSeconds(t, Math.floor((t / (8 * day)) * 1e6), 1e6) * 1000;
      turns += 1;
    }
    expect(turns).toBeLessThan(4_000);
  });
});

describe('hand-over', () => {
  it('happens on the turn whose events would reach the budget', () => {
    const budget = 15_000;
    // The turn after `turns` would bring the loop's events to at least the budget.
    const first = Math.ceil(budget / EVENTS_PER_TURN) - 1;
    expect(shouldHandOver(first - 1, budget)).toBe(false);
    expect(shouldHandOver(first, budget)).toBe(true);
  });
});
