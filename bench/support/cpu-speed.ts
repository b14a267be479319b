import { type Spread, spread } from './stats.js';

/** The probe's loop: a few hundred million integer additions, about a second on one core. */
export const PROBE_STEPS = 3e8;

/**
 * The seconds one core takes for a fixed loop of additions: the machine's speed while the bench
 * ran. A shared machine's share of its CPUs changes by the hour, and its load average does not
 * show it (another tenant's use is not in it): the same code measured 2.4 times slower on such
 * a day. The sum is returned with the time so that the loop cannot be optimised away.
 */
export function probeSeconds(now: () => number = () => performance.now()): { seconds: number; sum: number } {
  const t = now();
  let sum = 0;
  for (let i = 0; i < PROBE_STEPS; i += 1) sum += i;
  return { seconds: Math.round(now() - t) / 1000, sum };
}

/** The probe run now and at each `sample()` (between a bench's measures, never during one). */
export function sampleSpeed(probe: () => number = () => probeSeconds().seconds) {
  const samples = [probe()];
  return {
    sample() {
      samples.push(probe());
    },
    /** The probe's seconds so far: median (min–max). */
    summary: (): Spread => spread(samples),
  };
}
