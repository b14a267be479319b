import type { ExecutionSnapshot, RunControl } from '../../server/run-control.js';
import type { StageServices } from './stage-services.js';

/**
 * A deployed stage as the page's API acts on it (`geohub console --stage`): the ledger and the
 * bucket read with the operator's credentials, Step Functions' view of each execution, cancel
 * and re-drive as the CLI does them. The workers run on Fargate: no pool, no scratch to show.
 */
export function stageRunControl(services: StageServices): RunControl {
  const { aws, target } = services;
  return {
    target: { kind: 'stage', stage: target.stage, region: target.region },
    ledger: aws.ledger,
    store: aws.store,
    chain: aws.chain,
    execution: describedOnceEnded(services.executions),
    // The page asks again; Step Functions has no call that waits for an end.
    waitForEnd: async () => {},
    cancel: (runId) => services.cancel(runId, 'geohub console'),
    redrive: (runId) => services.redrive(runId),
    debris: () => undefined,
    workers: () => [],
    capacity: () => undefined,
    queues: () => services.queues(),
  };
}

/**
 * Step Functions' view of an execution, an ended one described once: an ended execution never
 * changes, the page polls every run's view, and Step Functions allows some 20 DescribeExecution
 * calls a second per account and region.
 */
export function describedOnceEnded(
  executions: StageServices['executions'],
): (executionArn: string) => Promise<ExecutionSnapshot | undefined> {
  const ended = new Map<string, ExecutionSnapshot>();
  return async (arn) => {
    const known = ended.get(arn);
    if (known) return known;
    const e = await executions.describe(arn);
    if (!e) return undefined;
    const snapshot = { status: e.status, error: e.error, cause: e.cause };
    if (e.status !== 'RUNNING' && e.status !== 'PENDING_REDRIVE') ended.set(arn, snapshot);
    return snapshot;
  };
}
