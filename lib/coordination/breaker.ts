import type { RunCounters } from '../model/run.js';

export interface BreakerSettings {
  /** Attempts that must have ended before the breaker may open: a few early failures are noise. */
  readonly minSample: number;
  /** Share of ended attempts that failed (terminally or for a retry) that opens it. */
  readonly failureRatio: number;
}

export interface BreakerReading {
  readonly open: boolean;
  readonly sample: number;
  readonly failures: number;
  readonly ratio: number;
}

/** The per-run circuit breaker: open when failures pile up, so the queue is drained, not burned. */
export function readBreaker(counters: RunCounters, settings: BreakerSettings): BreakerReading {
  const failures = counters.failed + counters.retried;
  const sample = counters.done + failures;
  const ratio = sample === 0 ? 0 : failures / sample;
  return { open: sample >= settings.minSample && ratio >= settings.failureRatio, sample, failures, ratio };
}
