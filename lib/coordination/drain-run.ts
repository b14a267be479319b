import { RunNotFoundError } from '../ledger/errors.js';
import type { Ledger } from '../ledger/ledger.js';

export interface DrainResult {
  readonly runId: string;
  /** When this drain began (epoch ms): the state machine hands it back on every pass. */
  readonly since: number;
  /** Sub-tiles of the run not yet accounted for (queued, in flight on a worker, or dead-lettered). */
  readonly remaining: number;
  readonly drained: boolean;
  /** The drain stopped waiting at its deadline, with sub-tiles still unaccounted. */
  readonly gaveUp: boolean;
}

export interface DrainDeps {
  readonly ledger: Ledger;
  /** How long a drain waits for the workers to park the run's work before the run is failed anyway. */
  readonly maxDrainMs: number;
  readonly now?: () => number;
}

/**
 * One pass of the drain after a run's breaker opened (docs/architecture.md, "The flow
 * of a run"). The run is DRAINING, so every worker that receives one of its messages parks its
 * sub-tiles and deletes it, and every worker holding one stops and parks it: the drain itself
 * receives nothing, so other runs' messages keep their receive budget. It reads one item (the
 * run's counters) and ends when the run is accounted for, whatever else is queued, or at its
 * deadline (work still queued behind a long backlog is parked when a worker reaches it, or
 * processed if the run is re-driven first). Either way the run ends FAILED, never DRAINING.
 */
export async function drainRun(deps: DrainDeps, runId: string, since: number | null): Promise<DrainResult> {
  const now = (deps.now ?? Date.now)();
  const began = since ?? now;
  const run = await deps.ledger.getRun(runId);
  if (!run) throw new RunNotFoundError(runId);
  const c = run.counters;
  const remaining = Math.max(0, c.total - (c.done + c.failed + c.parked + c.cancelled));
  // Re-driven or cancelled meanwhile: nothing left for this drain to decide.
  if (run.status !== 'DRAINING') return { runId, since: began, remaining, drained: true, gaveUp: false };
  const gaveUp = remaining > 0 && now - began >= deps.maxDrainMs;
  if (remaining > 0 && !gaveUp) return { runId, since: began, remaining, drained: false, gaveUp };
  const reason = gaveUp
    ? `${run.reason ?? 'circuit breaker open'}; drain ended after ${Math.round((now - began) / 1000)} s with ` +
      `${remaining} sub-tiles still queued, in flight or dead-lettered (workers park them as they come)`
    : (run.reason ?? 'circuit breaker open');
  await deps.ledger.updateRun(runId, { status: 'FAILED', reason }, ['DRAINING']);
  return { runId, since: began, remaining, drained: true, gaveUp };
}
