import { describe, expect, it } from 'vitest';
import { recentRuns } from '../../../worker/recent-runs.js';

describe('recentRuns', () => {
  it('keeps the runs in flight and the last few finished, drops the older ones', () => {
    const runs = recentRuns(2);
    runs.begin('a');
    runs.begin('b');
    expect(runs.end('b')).toEqual(new Set(['a', 'b']));
    runs.begin('c');
    expect(runs.end('c')).toEqual(new Set(['a', 'b', 'c']));
    runs.begin('d');
    // b is the oldest finished beyond the two kept; a is still in flight.
    expect(runs.end('d')).toEqual(new Set(['a', 'c', 'd']));
    expect(runs.end('a')).toEqual(new Set(['d', 'a']));
  });

  // The bug it catches: a run's copies freed while a second metatile of it is still in flight
  // (two metatiles overlap in a worker, handoff.ts): that tool would lose its input.
  it('counts each metatile of a run: the run stays while any is in flight', () => {
    const runs = recentRuns(0);
    runs.begin('a');
    runs.begin('a');
    expect(runs.end('a')).toEqual(new Set(['a']));
    expect(runs.end('a')).toEqual(new Set());
  });
});
