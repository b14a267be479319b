import middy from '@middy/core';
import { markFailedEventSchema } from '../lib/coordination/events.js';
import { failRun } from '../lib/coordination/fail-run.js';
import { type FunctionDeps, functionDeps } from './deps.js';

/** MarkFailed task: records the error the state machine caught as the run's reason. */
export const markFailedTask = (deps: Pick<FunctionDeps, 'ledger'>) => async (event: unknown) => {
  const { runId, error, source } = markFailedEventSchema.parse(event);
  await failRun(deps.ledger, runId, causeOf(error), source);
  return { runId };
};

/** A Lambda error's Cause is JSON ({errorType, errorMessage}) on AWS, plain text locally. */
function causeOf(error: { Error: string; Cause?: string }): string {
  let message = error.Cause ?? '';
  try {
    const parsed = JSON.parse(message) as { errorMessage?: string };
    if (parsed.errorMessage) message = parsed.errorMessage;
  } catch {
    // plain text
  }
  // geohub's own errors (UnsupportedCrsError, …) are one line that names the file and why: the
  // class name adds nothing for the user. A service's error (States.Timeout, Sandbox.Timedout) stays.
  const ours = /^[A-Z][A-Za-z]*Error$/.test(error.Error) && message.trim() !== '';
  return (ours ? message : `${error.Error}: ${message}`).slice(0, 2_000);
}

export const handler = middy().handler((event) => markFailedTask(functionDeps())(event));
