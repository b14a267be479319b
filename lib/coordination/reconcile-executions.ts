import type { ExecutionStarter } from '../executions/execution-starter.js';
import type { ExecutionChain } from '../ledger/execution-chain.js';
import type { Ledger } from '../ledger/ledger.js';
import { type ExecutionEndOutcome, recordExecutionEnd } from './record-execution-end.js';

/** Runs whose execution still speaks for them: an end of it must reach the run. */
const OPEN = new Set(['SPLITTING', 'RUNNING', 'DRAINING']);
const ENDED = new Set(['SUCCEEDED', 'FAILED', 'ABORTED', 'TIMED_OUT']);

/**
 * EventBridge delivers execution-status events best-effort (late, or never), so the ledger
 * does not rely on them alone: for every open run whose current execution has ended, the end
 * is recorded as its event would have recorded it (record-execution-end.ts; recording an end
 * twice changes nothing). Run by the scheduled reaper, a backstop like its lease reaping.
 */
export async function reconcileExecutions(
  deps: { ledger: Ledger; chain: ExecutionChain; starter: Pick<ExecutionStarter, 'statusOf'> },
  limit = 200,
): Promise<ExecutionEndOutcome[]> {
  if (!deps.starter.statusOf) return [];
  const outcomes: ExecutionEndOutcome[] = [];
  for (const run of await deps.ledger.listRuns(limit)) {
    if (!OPEN.has(run.status) || !run.executionArn) continue;
    const status = await deps.starter.statusOf(run.executionArn);
    if (!status || !ENDED.has(status)) continue;
    outcomes.push(
      await recordExecutionEnd(deps, {
        executionArn: run.executionArn,
        status,
        input: JSON.stringify({ runId: run.runId, source: run.source }),
        cause: `its status event never arrived; found ${status} by the reaper`,
      }),
    );
  }
  return outcomes;
}
