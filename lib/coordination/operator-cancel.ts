import type { Ledger } from '../ledger/ledger.js';
import type { RunRecord } from '../model/run.js';
import { cancelRun } from './cancel-run.js';

/** The two things a cancel asks of Step Functions (local executions, or the service itself). */
export interface StoppableExecutions {
  isRunning(executionArn: string): Promise<boolean>;
  stop(executionArn: string): Promise<void>;
}

export interface OperatorCancelDeps {
  /** The operator's ledger: its writes are checked against the operator policy. */
  readonly ledger: Pick<Ledger, 'getRun' | 'updateRun'>;
  readonly executions: StoppableExecutions;
}

/**
 * An operator's cancel (`geohub cancel`, the page, Ctrl-C of `geohub run`), as on AWS: the
 * console's Stop button when the run's execution runs, and the workers see the run CANCELLED.
 * A run with no running execution (its trigger died between planning it and starting it, or
 * the execution's end was never recorded) is cancelled on its record. Undefined: no such run.
 */
export async function operatorCancel(
  deps: OperatorCancelDeps,
  runId: string,
): Promise<RunRecord | undefined> {
  const run = await deps.ledger.getRun(runId);
  if (!run) return undefined;
  if (run.executionArn && (await deps.executions.isRunning(run.executionArn)))
    await deps.executions.stop(run.executionArn);
  else await cancelRun(deps.ledger, run.runId, 'cancelled by an operator');
  return deps.ledger.getRun(runId);
}
