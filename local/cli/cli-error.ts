import { GeohubError } from '../../lib/errors/geohub-error.js';

/** A command stopped by Ctrl-C (or SIGTERM): a shell's code for a job ended by SIGINT. */
export const EXIT_CANCELLED = 130;

/** Ends the CLI with one clear line (no stack trace unless --verbose) and a chosen exit code. */
export class CliError extends GeohubError {
  override readonly name = 'CliError';

  constructor(
    message: string,
    readonly exitCode = 1,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
