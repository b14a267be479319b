import type { ExecutionStarter } from '../executions/execution-starter.js';
import type { ExecutionChain, ExecutionLink } from '../ledger/execution-chain.js';
import type { Ledger } from '../ledger/ledger.js';

export interface SuccessorDeps {
  readonly ledger: Ledger;
  readonly chain: ExecutionChain;
  readonly starter: ExecutionStarter;
}

/**
 * Starts an execution that resumes a run at its progress loop (no split, no enqueue): after a
 * hand-over or a re-drive. The run names it as its current execution *first*, so the end of
 * the one before is never taken for the run's end (docs/architecture.md, "Runs of any length").
 */
export async function startSuccessor(
  deps: SuccessorDeps,
  name: string,
  reason: ExecutionLink['reason'],
  run: {
    runId: string;
    source: { bucket: string; key: string; version: string };
    operation?: string;
    params?: Readonly<Record<string, unknown>>;
  },
): Promise<string> {
  const executionArn = deps.starter.arnFor(name);
  await deps.ledger.updateRun(run.runId, { executionArn });
  await deps.chain.started(run.runId, executionArn, reason);
  await deps.starter.start(name, {
    runId: run.runId,
    executionArn,
    source: run.source,
    ...(run.operation ? { operation: run.operation } : {}),
    params: run.params ?? {},
    resume: true,
  });
  return executionArn;
}
