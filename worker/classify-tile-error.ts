import { classifyFailure } from '../lib/operations/classify-failure.js';
import { ProcessGroupSurvivedError, ToolCancelledError, ToolTimeoutError } from '../lib/process/errors.js';
import { DeadlineExceededError, TileDataError, TileRetryableError } from './errors.js';

/**
 * What a failed attempt at sub-tiles becomes: a ProcessGroupSurvivedError as itself; the cancellation cause carried by `signal`
 * (InterruptedError, RunStoppedError, LeaseLostError) if it fired, else DeadlineExceededError,
 * TileDataError (never retried) or TileRetryableError.
 */
export function classifyTileError(signal: AbortSignal, error: unknown): unknown {
  // The machine is in trouble, not the sub-tile: passed on as itself so that the worker stops.
  if (error instanceof ProcessGroupSurvivedError) return error;
  if (signal.aborted) return signal.reason;
  if (error instanceof ToolCancelledError) return error.reason;
  if (error instanceof ToolTimeoutError) return new DeadlineExceededError(error.message, { cause: error });
  if (error instanceof TileDataError) return error;
  if (classifyFailure(error) === 'data') return new TileDataError((error as Error).message, { cause: error });
  return new TileRetryableError((error as Error).message ?? String(error), { cause: error });
}
