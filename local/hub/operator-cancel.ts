import { cancelRun } from '../../lib/coordination/cancel-run.js';
import type { Ledger } from '../../lib/ledger/ledger.js';
import type { RunRecord } from '../../lib/model/run.js';
import type { LocalExecutions } from '../statemachine/local-executions.js';

export interface OperatorCancelDeps {
  /** The operator's ledger: its writes are checked against the operator policy. */
  readonly ledger: Ledger;
  readonly executions: Pick<LocalExecutions, 'get' | 'stop'>;
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
  const execution = run.executionArn ? deps.executions.get(run.executionArn) : undefined;
  if (execution?.status === 'RUNNING') await deps.executions.stop(execution.executionArn);
  else await cancelRun(deps.ledger, run.runId, 'cancelled by an operator');
  return deps.ledger.getRun(runId);
}
