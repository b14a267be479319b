import middy from '@middy/core';
import { checkProgress, type Progress } from '../lib/coordination/check-progress.js';
import { checkProgressEventSchema } from '../lib/coordination/events.js';
import { type FunctionDeps, functionDeps } from './deps.js';

/** CheckProgress task: `{runId}` → the run's counters and the coordinator's next step. */
export const checkProgressTask =
  (deps: Pick<FunctionDeps, 'ledger' | 'queue' | 'deadLetters' | 'config'>) =>
  async (event: unknown): Promise<Progress> => {
    const { runId, turns } = checkProgressEventSchema.parse(event);
    return checkProgress(
      { ...deps, breaker: deps.config.breaker, loopEventBudget: deps.config.loopEventBudget },
      runId,
      turns,
    );
  };

export const handler = middy<unknown, Progress>().handler((event) =>
  checkProgressTask(functionDeps())(event),
);
