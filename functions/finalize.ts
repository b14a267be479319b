import middy from '@middy/core';
import { runEventSchema } from '../lib/coordination/events.js';
import { type FinalizeResult, finalizeRun } from '../lib/coordination/finalize-run.js';
import { type FunctionDeps, functionDeps } from './deps.js';

/** Finalize task: `{runId}` → mosaic VRT, STAC collection and summary; SUCCEEDED or FAILED. */
export const finalizeTask =
  (deps: Pick<FunctionDeps, 'ledger' | 'store'>) =>
  async (event: unknown): Promise<FinalizeResult> =>
    finalizeRun(deps, runEventSchema.parse(event).runId);

export const handler = middy<unknown, FinalizeResult>().handler((event) =>
  finalizeTask(functionDeps())(event),
);
