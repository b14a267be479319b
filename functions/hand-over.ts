import middy from '@middy/core';
import { handOverEventSchema } from '../lib/coordination/events.js';
import { handOver } from '../lib/coordination/hand-over.js';
import type { ExecutionStarter } from '../lib/executions/execution-starter.js';
import { type FunctionDeps, functionDeps } from './deps.js';

/** HandOver task: `{runId, executionArn, source, …}` → a fresh execution resumes the run. */
export const handOverTask =
  (deps: Pick<FunctionDeps, 'ledger' | 'chain'> & { starter: ExecutionStarter }) =>
  async (event: unknown): Promise<{ executionArn: string }> =>
    handOver(deps, handOverEventSchema.parse(event));

export const handler = middy<unknown, { executionArn: string }>().handler((event) => {
  const deps = functionDeps();
  return handOverTask({ ...deps, starter: deps.starter() })(event);
});
