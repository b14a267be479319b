import { operatorCancel } from '../../lib/coordination/operator-cancel.js';
import type { Ledger } from '../../lib/ledger/ledger.js';
import type { RunRecord } from '../../lib/model/run.js';
import type { LocalExecutions } from '../statemachine/local-executions.js';

/** An operator's cancel on the local hub: its executions are the local runner's. */
export function cancelOnHub(
  hub: { readonly ledger: Ledger; readonly executions: Pick<LocalExecutions, 'get' | 'stop'> },
  runId: string,
): Promise<RunRecord | undefined> {
  return operatorCancel(
    {
      ledger: hub.ledger,
      executions: {
        isRunning: async (arn) => hub.executions.get(arn)?.status === 'RUNNING',
        stop: (arn) => hub.executions.stop(arn),
      },
    },
    runId,
  );
}
