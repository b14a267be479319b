import middy from '@middy/core';
import { checkProgress, type Progress } from '../lib/coordination/check-progress.js';
import { runEventSchema } from '../lib/coordination/events.js';
import { type FunctionDeps, functionDeps } from './deps.js';

/** CheckProgress task: `{runId}` → the run's counters and the coordinator's next step. */
export const checkProgressTask =
  (deps: Pick<FunctionDeps, 'ledger' | 'queue' | 'deadLetters' | 'config'>) =>
  async (event: unknown): Promise<Progress> =>
    checkProgress({ ...deps, breaker: deps.config.breaker }, runEventSchema.parse(event).runId);

export const handler = middy<unknown, Progress>().handler((event) =>
  checkProgressTask(functionDeps())(event),
);
