import { RunNotFoundError } from '../ledger/errors.js';
import type { Ledger } from '../ledger/ledger.js';
import type { RunCounters, RunStatus } from '../model/run.js';
import type { WorkQueue } from '../queue/work-queue.js';
import { type BreakerReading, type BreakerSettings, readBreaker } from './breaker.js';
import { pollSeconds, shouldHandOver } from './poll-interval.js';
import { resendStaleStops } from './stale-stops.js';

/** What the state machine does next. */
export type ProgressDecision = 'WAIT' | 'FINALIZE' | 'BREAKER_OPEN' | 'CANCELLED' | 'STALLED' | 'HANDOVER';

export interface Progress {
  readonly runId: string;
  readonly status: RunStatus;
  readonly counters: RunCounters;
  /** Sub-tiles with a final state: done, failed, parked or cancelled. */
  readonly accounted: number;
  readonly breaker: BreakerReading;
  readonly decision: ProgressDecision;
  readonly deadLettered: number;
  /** Turns of the progress loop this execution has made, this one included. */
  readonly turns: number;
  /** How long the coordinator waits before the next check (grows with the run's age). */
  readonly waitSeconds: number;
}

export interface CheckProgressDeps {
  readonly ledger: Ledger;
  readonly queue: WorkQueue;
  readonly deadLetters: WorkQueue;
  readonly breaker: BreakerSettings;
  /** History events this execution's progress loop may write before handing over. */
  readonly loopEventBudget: number;
  readonly now?: () => number;
}

/**
 * One turn of the coordinator's loop: reads the run's counters (one item, kept exact by the
 * marker transactions) and decides. Opening the breaker is recorded here, so workers stop
 * taking the run's work from their next status poll.
 */
export async function checkProgress(
  deps: CheckProgressDeps,
  runId: string,
  turnsBefore = 0,
): Promise<Progress> {
  const run = await deps.ledger.getRun(runId);
  if (!run) throw new RunNotFoundError(runId);
  const c = run.counters;
  const accounted = c.done + c.failed + c.parked + c.cancelled;
  const breaker = readBreaker(c, deps.breaker);
  const turns = turnsBefore + 1;
  const elapsedMs = (deps.now ?? Date.now)() - Date.parse(run.createdAt);
  const waitSeconds = pollSeconds(elapsedMs, accounted, c.total);
  const base = { runId, counters: c, accounted, breaker, deadLettered: 0, turns, waitSeconds };
  // Still waiting, and the next turn would pass this execution's budget: a fresh one takes over.
  const wait = (): Progress => ({
    ...base,
    status: run.status,
    decision: shouldHandOver(turns, deps.loopEventBudget) ? 'HANDOVER' : 'WAIT',
  });

  if (run.status === 'CANCELLED') return { ...base, status: run.status, decision: 'CANCELLED' };
  if (run.status === 'DRAINING' || run.breaker === 'OPEN')
    return { ...base, status: run.status, decision: 'BREAKER_OPEN' };
  if (accounted >= c.total) {
    // Accounted for, but some of it stopped with the run before a re-drive that raced the
    // workers stopping it: sent again, the loop waits for it (once per run end, not per turn).
    if (c.cancelled + c.parked > 0 && (await resendStaleStops(deps, runId)) > 0) return wait();
    return { ...base, status: run.status, decision: 'FINALIZE' };
  }
  if (breaker.open) {
    const reason =
      `circuit breaker open: ${breaker.failures} of ${breaker.sample} attempts failed ` +
      `(${Math.round(breaker.ratio * 100)} % ≥ ${Math.round(deps.breaker.failureRatio * 100)} %)`;
    await deps.ledger.updateRun(runId, { status: 'DRAINING', breaker: 'OPEN', reason }, ['RUNNING']);
    return { ...base, status: 'DRAINING', decision: 'BREAKER_OPEN' };
  }
  // Nothing left to deliver but the run is short: the rest is in the dead-letter queue.
  // The DLQ is almost always empty: ask the work queue only when something is dead-lettered.
  const dead = await deps.deadLetters.depth();
  if (dead.visible === 0) return wait();
  const work = await deps.queue.depth();
  if (work.visible + work.inFlight === 0) {
    return { ...base, status: run.status, decision: 'STALLED', deadLettered: dead.visible };
  }
  return wait();
}
