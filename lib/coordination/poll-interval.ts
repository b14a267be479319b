/** Shortest and longest wait between two progress checks, in seconds (AWS Wait states take whole seconds). */
export const MIN_POLL_SECONDS = 10;
export const MAX_POLL_SECONDS = 300;

/**
 * The coordinator's next wait grows with the run's expected duration: a run that has gone
 * for hours is checked every few minutes, so its history grows by turns per hour, not per
 * second (docs/architecture.md, "Runs of any length"). It never waits much past the
 * estimated end: the rate so far says when the rest should be done.
 */
export function pollSeconds(elapsedMs: number, accounted: number, total: number): number {
  const elapsed = Math.max(0, elapsedMs) / 1000;
  const byAge = elapsed / 30;
  const rate = accounted > 0 ? accounted / Math.max(elapsed, 1) : 0;
  const remaining = rate > 0 ? (total - accounted) / rate : Number.POSITIVE_INFINITY;
  const seconds = Math.min(byAge, remaining / 4);
  return Math.round(Math.min(MAX_POLL_SECONDS, Math.max(MIN_POLL_SECONDS, seconds)));
}

/** History events one turn of the progress loop writes: Wait (2), the Lambda task (5), Choice (2). */
export const EVENTS_PER_TURN = 9;

/**
 * Whether this execution should hand its run to a fresh one: its progress loop would pass
 * its budget of history events on the next turn. The budget sits well below Step Functions'
 * 25,000 so that split, the enqueue loop, finalize, a drain and retries still fit.
 */
export function shouldHandOver(turns: number, loopBudget: number): boolean {
  return (turns + 1) * EVENTS_PER_TURN >= loopBudget;
}
