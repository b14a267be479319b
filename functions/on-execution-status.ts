import middy from '@middy/core';
import { executionStatusEventSchema } from '../lib/coordination/events.js';
import { type ExecutionEndOutcome, recordExecutionEnd } from '../lib/coordination/record-execution-end.js';
import { type FunctionDeps, functionDeps } from './deps.js';

/**
 * EventBridge rule target for executions that ended FAILED, ABORTED (stopped in the console)
 * or TIMED_OUT: the run records it (CANCELLED, which the workers watch, or FAILED with its cause).
 */
export const onExecutionStatusTask =
  (deps: Pick<FunctionDeps, 'ledger' | 'chain'>) =>
  async (event: unknown): Promise<ExecutionEndOutcome> =>
    recordExecutionEnd(deps, executionStatusEventSchema.parse(event).detail);

export const handler = middy<unknown, ExecutionEndOutcome>().handler((event) =>
  onExecutionStatusTask(functionDeps())(event),
);
