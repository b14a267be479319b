import { expect } from 'vitest';

/** An execution's end, compared whole so that a failure prints its error and cause. */
export function expectSucceeded(execution: { status: string; error?: string; cause?: string }): void {
  expect({ status: execution.status, error: execution.error, cause: execution.cause }).toEqual({
    status: 'SUCCEEDED',
    error: undefined,
    cause: undefined,
  });
}
