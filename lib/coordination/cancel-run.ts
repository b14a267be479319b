import type { Ledger } from '../ledger/ledger.js';

/**
 * An execution that was stopped (ABORTED in the console) or TIMED_OUT cancels its run:
 * workers see CANCELLED on their next status poll, stop the tool, release their claims,
 * and drop the run's queued messages. Idempotent; a finished run stays as it is.
 */
export async function cancelRun(
  ledger: Pick<Ledger, 'updateRun'>,
  runId: string,
  reason: string,
): Promise<boolean> {
  return ledger.updateRun(runId, { status: 'CANCELLED', reason }, ['SPLITTING', 'RUNNING', 'DRAINING']);
}
