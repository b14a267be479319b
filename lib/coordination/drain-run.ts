import type { Ledger } from '../ledger/ledger.js';
import { countClaims } from '../ledger/tile-records.js';
import { parseTileMessage } from '../model/message.js';
import { metatileOf } from '../model/metatile.js';
import type { WorkQueue } from '../queue/work-queue.js';
import { failRun } from './fail-run.js';

export interface DrainResult {
  readonly runId: string;
  /** Sub-tiles of the run taken off the queue and parked by this call. */
  readonly parked: number;
  /** Sub-tiles of the run not yet accounted for (in flight on a worker, or dead-lettered). */
  readonly remaining: number;
  readonly drained: boolean;
}

export interface DrainDeps {
  readonly ledger: Ledger;
  readonly queue: WorkQueue;
  readonly now?: () => number;
}

/**
 * Takes the run's messages off the queue after its breaker opened, parking their sub-tiles
 * for a re-drive; other runs' messages go straight back. Workers park what they hold
 * themselves (they watch the run's status), so the state machine loops until nothing of the
 * run is queued or in flight. Bounded in time: a Lambda invocation must end.
 */
export async function drainRun(deps: DrainDeps, runId: string, budgetMs = 20_000): Promise<DrainResult> {
  const now = deps.now ?? Date.now;
  const deadline = now() + budgetMs;
  let parked = 0;
  while (now() < deadline) {
    const messages = await deps.queue.receive(10, 1, 30);
    if (messages.length === 0) break;
    for (const message of messages) {
      const parsed = parseTileMessage(message.body);
      if (!parsed.ok || parsed.message.runId !== runId) {
        await deps.queue.setVisibility(message, 0);
        continue;
      }
      await deps.ledger.park(runId, [metatileOf(parsed.message.tiles)], 'PARKED', {
        class: 'BreakerOpenError',
        message: 'dropped from the queue: the run’s circuit breaker is open',
      });
      parked += parsed.message.tiles.length;
      await deps.queue.delete(message);
    }
  }
  const run = await deps.ledger.getRun(runId);
  const c = run?.counters;
  const remaining = c ? c.total - (c.done + c.failed + c.parked + c.cancelled) : 0;
  const queue = await deps.queue.depth();
  // Drained when nothing of the run can still change state: the queue holds none of it (we
  // just emptied it of the run's messages) and no sub-tile is left unaccounted but in flight.
  const inFlight = await countClaims(deps.ledger, runId);
  const drained = inFlight === 0 && (remaining === 0 || queue.visible + queue.inFlight === 0);
  if (drained) await failRun(deps.ledger, runId, run?.reason ?? 'circuit breaker open');
  return { runId, parked, remaining, drained };
}
