import type { ExecutionChain, ExecutionLink } from '../../lib/ledger/execution-chain.js';
import type { RunRecord } from '../../lib/model/run.js';
import type { ExecutionSnapshot } from './run-control.js';

/** Where a run's executions are read: the local hub's runner, or Step Functions on a stage. */
export interface RunViewSource {
  readonly chain: ExecutionChain;
  execution(executionArn: string): Promise<ExecutionSnapshot | undefined>;
}

/** One execution of a run's chain, named as Step Functions' console names it. */
export type NamedLink = ExecutionLink & { readonly name: string; readonly historyEvents?: number };

/**
 * A run as `geohub status` and the page show it, on the local hub's API and on a deployed stage
 * alike: its record, its current execution as the source describes it, and with `chain` the chain
 * of its executions (hand-overs, re-drives), `history` adding each one's event count where the
 * source tells it (one description per link: the run's own view only, never a list of runs).
 */
export async function runView(
  source: RunViewSource,
  run: RunRecord,
  options: { readonly chain?: boolean; readonly history?: boolean } = {},
): Promise<RunRecord & { execution?: ExecutionSnapshot; executions?: NamedLink[] }> {
  const [execution, executions] = await Promise.all([
    run.executionArn ? source.execution(run.executionArn) : undefined,
    options.chain ? namedChain(source, run.runId, options.history === true) : undefined,
  ]);
  return {
    ...run,
    // Its history's size is the chain's to show (below): the runner's place in it is the run's.
    ...(execution ? { execution: withoutHistory(execution) } : {}),
    ...(executions ? { executions } : {}),
  };
}

const withoutHistory = ({ historyEvents: _, ...execution }: ExecutionSnapshot): ExecutionSnapshot =>
  execution;

async function namedChain(source: RunViewSource, runId: string, history: boolean): Promise<NamedLink[]> {
  return Promise.all(
    (await source.chain.list(runId)).map(async (link) => ({
      ...link,
      name: link.executionArn.slice(link.executionArn.lastIndexOf(':') + 1),
      ...(history ? { historyEvents: (await source.execution(link.executionArn))?.historyEvents } : {}),
    })),
  );
}
