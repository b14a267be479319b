import type { Ledger } from '../ledger/ledger.js';
import type { SourceRef } from '../model/run.js';

/** Records a run that failed before it could be split (no sub-tiles), with its reason. */
export async function recordFailedRun(
  ledger: Ledger,
  runId: string,
  source: SourceRef,
  reason: string,
): Promise<void> {
  await ledger.createRun({
    runId,
    status: 'FAILED',
    source,
    operation: 'raster-xyz',
    params: {},
    paramsVersion: '',
    total: 0,
    reason,
  });
}

/**
 * Records why a run ended FAILED (an error the state machine caught, or an open breaker).
 * A run that failed before split could record it (an unreadable source) is recorded here,
 * so that every upload leaves a run with its reason.
 */
export async function failRun(
  ledger: Ledger,
  runId: string,
  reason: string,
  source?: SourceRef,
): Promise<void> {
  const updated = await ledger.updateRun(runId, { status: 'FAILED', reason }, [
    'SPLITTING',
    'RUNNING',
    'DRAINING',
  ]);
  if (updated || !source || (await ledger.getRun(runId))) return;
  await recordFailedRun(ledger, runId, source, reason);
}
