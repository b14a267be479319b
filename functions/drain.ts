import middy from '@middy/core';
import { type DrainResult, drainRun } from '../lib/coordination/drain-run.js';
import { drainEventSchema } from '../lib/coordination/events.js';
import { type FunctionDeps, functionDeps } from './deps.js';

/** Drain task: `{runId, since}` → whether the run whose breaker opened is accounted for. */
export const drainTask =
  (deps: Pick<FunctionDeps, 'ledger' | 'config'>) =>
  async (event: unknown): Promise<DrainResult> => {
    const { runId, since } = drainEventSchema.parse(event);
    return drainRun({ ledger: deps.ledger, maxDrainMs: deps.config.maxDrainMs }, runId, since);
  };

export const handler = middy<unknown, DrainResult>().handler((event) => drainTask(functionDeps())(event));
