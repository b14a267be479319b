import middy from '@middy/core';
import { redriveEventSchema } from '../lib/coordination/events.js';
import { type RedriveReport, redrive } from '../lib/coordination/redrive.js';
import type { ExecutionStarter } from '../lib/executions/execution-starter.js';
import { type FunctionDeps, functionDeps } from './deps.js';

/** Redrive: `{runId?}` → dead-lettered and parked work back on the queue with a fresh budget. */
export const redriveTask =
  (deps: Pick<FunctionDeps, 'ledger' | 'chain' | 'queue' | 'deadLetters'> & { starter: ExecutionStarter }) =>
  async (event: unknown): Promise<RedriveReport> =>
    redrive(deps, redriveEventSchema.parse(event ?? {}).runId);

export const handler = middy<unknown, RedriveReport>().handler((event) => {
  const deps = functionDeps();
  return redriveTask({ ...deps, starter: deps.starter() })(event);
});
