/** Ends the CLI with one clear line (no stack trace unless --verbose) and a chosen exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'CliError';
  }
}
