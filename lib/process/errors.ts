import { GeohubError } from '../errors/geohub-error.js';

/** The tool could not be started at all (not installed, not executable). */
export class ToolStartError extends GeohubError {
  override readonly name = 'ToolStartError';
}

/** The tool ran and failed: a non-zero exit, or a signal we did not send (e.g. the OOM killer). */
export class ToolExitError extends GeohubError {
  override readonly name = 'ToolExitError';

  constructor(
    message: string,
    readonly exitCode: number | undefined,
    readonly signal: string | undefined,
    readonly stderr: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The attempt's budget ran out; the process group was terminated. */
export class ToolTimeoutError extends GeohubError {
  override readonly name = 'ToolTimeoutError';
}

/** The caller cancelled (its AbortSignal fired); the process group was terminated. */
export class ToolCancelledError extends GeohubError {
  override readonly name = 'ToolCancelledError';

  constructor(
    message: string,
    readonly reason: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A process group outlived SIGKILL: something is badly wrong with the machine; stop taking work. */
export class ProcessGroupSurvivedError extends GeohubError {
  override readonly name = 'ProcessGroupSurvivedError';
}

/** A serving engine was sent a request while one was in flight: the engine pool's own bug. */
export class EngineBusyError extends GeohubError {
  override readonly name = 'EngineBusyError';
}
