import type { Ledger } from '../ledger/ledger.js';
import { metatileMessage } from '../model/message.js';
import type { MetatileRecord } from '../model/run.js';
import type { WorkQueue } from '../queue/work-queue.js';
import { RequeueFailedError } from './errors.js';

/**
 * Why a metatile is parked when its run stopped (a drained breaker, or the reaper of a stopped
 * run): not a verdict on the metatile itself, unlike a tool over its budget.
 */
const STOPPED_WITH_ITS_RUN = new Set(['RunStoppedError', 'LeaseExpiredError']);

/** Cancelled, or parked because its run stopped: work a running run still owes. */
export function stoppedWithItsRun(record: MetatileRecord): boolean {
  if (record.state === 'CANCELLED') return true;
  return record.state === 'PARKED' && STOPPED_WITH_ITS_RUN.has(record.lastError?.class ?? '');
}

/**
 * Re-sends what a running run still owes from the time it was stopped. A re-drive queues what
 * was stopped before it; a worker that was stopping its metatile while the re-drive ran (its
 * claim still live, so the re-drive skipped it) parks it afterwards, and its message is gone
 * (docs/architecture.md, "Runs of any length"). Returns the sub-tiles sent again.
 */
export async function resendStaleStops(
  deps: { readonly ledger: Pick<Ledger, 'unpark'>; readonly queue: Pick<WorkQueue, 'sendBatch'> },
  runId: string,
): Promise<number> {
  const metatiles = await deps.ledger.unpark(runId, stoppedWithItsRun);
  if (metatiles.length === 0) return 0;
  const sent = await deps.queue.sendBatch(metatiles.map((m) => metatileMessage(runId, m)));
  if (sent.failed.length > 0)
    throw new RequeueFailedError(`could not re-send ${sent.failed.length} messages of ${runId}`);
  return metatiles.reduce((n, m) => n + m.tiles.length, 0);
}
