import middy from '@middy/core';
import { markFailedEventSchema } from '../lib/coordination/events.js';
import { failRun } from '../lib/coordination/fail-run.js';
import { type FunctionDeps, functionDeps } from './deps.js';

/** MarkFailed task: records the error the state machine caught as the run's reason. */
export const markFailedTask = (deps: Pick<FunctionDeps, 'ledger'>) => async (event: unknown) => {
  const { runId, error } = markFailedEventSchema.parse(event);
  await failRun(deps.ledger, runId, `${error.Error}: ${error.Cause ?? ''}`.slice(0, 2_000));
  return { runId };
};

export const handler = middy().handler((event) => markFailedTask(functionDeps())(event));
