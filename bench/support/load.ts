import { loadavg } from 'node:os';
import { type Spread, spread } from './stats.js';

/**
 * The machine's 1-minute load average, sampled every `everyMs` while the bench runs: the figures
 * of a shared machine mean little without it (the README's table states it).
 */
export function sampleLoad(everyMs = 10_000) {
  const samples = [loadavg()[0]!];
  const timer = setInterval(() => samples.push(loadavg()[0]!), everyMs);
  timer.unref();
  return {
    /** The load so far: median (min–max) of the samples. */
    summary: (): Spread => spread(samples),
    stop() {
      clearInterval(timer);
    },
  };
}
