import type { ExecutionChain } from '../ledger/execution-chain.js';
import type { Ledger } from '../ledger/ledger.js';
import { runIdSchema } from '../model/ids.js';
import type { SourceRef } from '../model/run.js';
import { cancelRun } from './cancel-run.js';
import { failRun } from './fail-run.js';

export interface ExecutionEndDetail {
  readonly executionArn: string;
  readonly status: string;
  readonly input?: string | null;
  readonly error?: string | null;
  readonly cause?: string | null;
}

export type ExecutionEndOutcome =
  | { readonly outcome: 'cancelled' | 'failed' | 'unchanged' | 'superseded'; readonly runId: string }
  | { readonly outcome: 'ignored'; readonly reason: string };

const ENDS = ['SUCCEEDED', 'FAILED', 'ABORTED', 'TIMED_OUT'] as const;
type End = (typeof ENDS)[number];

/**
 * Every way an execution ends reaches the ledger (docs/architecture.md, "Runs of any length"):
 * the run's chain of executions records each end;
 * ABORTED (stopped in the console) and TIMED_OUT cancel the run, so workers stop; FAILED
 * (a state machine error, the history limit, a payload over 256 KiB) fails it with the cause,
 * so `geohub redrive` can resume it. Only the run's current execution speaks for the run:
 * one that handed over, or was replaced by a re-drive, is recorded in the chain and no more.
 */
export async function recordExecutionEnd(
  deps: { ledger: Ledger; chain: ExecutionChain },
  detail: ExecutionEndDetail,
): Promise<ExecutionEndOutcome> {
  if (!ENDS.includes(detail.status as End)) return { outcome: 'ignored', reason: `status ${detail.status}` };
  const status = detail.status as End;
  let input: { runId?: unknown; source?: SourceRef } = {};
  try {
    input = JSON.parse(detail.input ?? '{}') as typeof input;
  } catch {
    return { outcome: 'ignored', reason: 'execution input is not JSON' };
  }
  const parsed = runIdSchema.safeParse(input.runId);
  if (!parsed.success) return { outcome: 'ignored', reason: 'execution input has no run id' };
  const runId = parsed.data;
  const error = detail.error ?? undefined;
  const cause = detail.cause ?? undefined;
  await deps.chain.ended(runId, detail.executionArn, { status, error, cause });
  // A success needs nothing more: finalize recorded the run, or a successor took it over.
  if (status === 'SUCCEEDED') return { outcome: 'unchanged', runId };

  const run = await deps.ledger.getRun(runId);
  if (run?.executionArn && run.executionArn !== detail.executionArn) return { outcome: 'superseded', runId };
  if (status === 'FAILED') {
    const why = [error, cause].filter(Boolean).join(': ') || 'no cause given';
    const before = run?.status;
    await failRun(deps.ledger, runId, `execution failed: ${why}`.slice(0, 2_000), input.source);
    const after = (await deps.ledger.getRun(runId))?.status;
    return { outcome: before !== after ? 'failed' : 'unchanged', runId };
  }
  const how = status === 'ABORTED' ? 'execution stopped' : 'execution timed out';
  const cancelled = await cancelRun(deps.ledger, runId, `${how}: ${detail.executionArn}`);
  return { outcome: cancelled ? 'cancelled' : 'unchanged', runId };
}
