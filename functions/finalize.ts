import middy from '@middy/core';
import { runEventSchema } from '../lib/coordination/events.js';
import { type FinalizeResult, finalizeRun } from '../lib/coordination/finalize-run.js';
import { createLogger } from '../lib/log/logger.js';
import { type FunctionDeps, functionDeps } from './deps.js';

// Debug level: the phases' times (markers read, mosaic, STAC) for benchmarks and a slow run's logs.
const log = createLogger({ fn: 'finalize' });

/** Finalize task: `{runId}` → mosaic VRT, STAC collection and summary; SUCCEEDED or FAILED. */
export const finalizeTask =
  (deps: Pick<FunctionDeps, 'ledger' | 'store'>) =>
  async (event: unknown): Promise<FinalizeResult> => {
    const { runId } = runEventSchema.parse(event);
    return finalizeRun(
      { ...deps, onPhase: (phase, fields) => log.debug({ runId, ...fields }, phase) },
      runId,
    );
  };

export const handler = middy<unknown, FinalizeResult>().handler((event) =>
  finalizeTask(functionDeps())(event),
);
