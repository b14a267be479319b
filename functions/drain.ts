import middy from '@middy/core';
import { type DrainResult, drainRun } from '../lib/coordination/drain-run.js';
import { runEventSchema } from '../lib/coordination/events.js';
import { type FunctionDeps, functionDeps } from './deps.js';

/** Drain task: `{runId}` → parks the run's queued work after its breaker opened. */
export const drainTask =
  (deps: Pick<FunctionDeps, 'ledger' | 'queue'>) =>
  async (event: unknown): Promise<DrainResult> =>
    drainRun(deps, runEventSchema.parse(event).runId);

export const handler = middy<unknown, DrainResult>().handler((event) => drainTask(functionDeps())(event));
