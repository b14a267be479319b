import middy from '@middy/core';
import { cancelRun } from '../lib/coordination/cancel-run.js';
import { executionStatusEventSchema, runEventSchema } from '../lib/coordination/events.js';
import { type FunctionDeps, functionDeps } from './deps.js';

/**
 * EventBridge rule target for executions that ended ABORTED (stopped in the console) or
 * TIMED_OUT: the run becomes CANCELLED, which is what the workers watch.
 */
export const onExecutionStatusTask = (deps: Pick<FunctionDeps, 'ledger'>) => async (event: unknown) => {
  const { detail } = executionStatusEventSchema.parse(event);
  if (detail.status !== 'ABORTED' && detail.status !== 'TIMED_OUT') return { cancelled: false };
  const { runId } = runEventSchema.parse(JSON.parse(detail.input ?? '{}'));
  const how = detail.status === 'ABORTED' ? 'execution stopped' : 'execution timed out';
  return { runId, cancelled: await cancelRun(deps.ledger, runId, `${how}: ${detail.executionArn}`) };
};

export const handler = middy().handler((event) => onExecutionStatusTask(functionDeps())(event));
