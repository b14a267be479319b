import type { Ledger } from '../ledger/ledger.js';

/** Records why a run ended FAILED (an error the state machine caught, or an open breaker). */
export async function failRun(ledger: Ledger, runId: string, reason: string): Promise<void> {
  await ledger.updateRun(runId, { status: 'FAILED', reason }, ['SPLITTING', 'RUNNING', 'DRAINING']);
}
