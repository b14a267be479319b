/**
 * Whatever way the CLI ends, it ends with one line and its children go with it (the stack's
 * and the pool's exit hooks run on process.exit):
 * - a reader that closes stdout early (`geohub run … | head -1`) is not an error of the run:
 *   later output is dropped and the run goes on to its end and its own exit code;
 * - an error nothing caught prints one line (the stack with --verbose) and exits 1.
 */
export function installCrashGuards(
  proc: NodeJS.Process = process,
  verbose = proc.argv.includes('--verbose'),
): void {
  const dropClosedPipe = (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
    crash(error);
  };
  const crash = (error: unknown) => {
    const text =
      verbose && error instanceof Error && error.stack
        ? error.stack
        : `geohub: unexpected error: ${error instanceof Error ? error.message : String(error)}`;
    try {
      proc.stderr.write(`${text}\n`);
    } catch {
      // stderr is gone too: the exit code still says it
    }
    proc.exit(1);
  };
  proc.stdout.on('error', dropClosedPipe);
  proc.stderr.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') proc.exit(1);
  });
  proc.on('uncaughtException', crash);
  proc.on('unhandledRejection', crash);
}
