import { ToolExitError, ToolStartError } from './errors.js';
import { watchGroup } from './group-watch.js';
import { forgetGroup, startProcess } from './start-process.js';
import { groupGone } from './terminate-group.js';

export interface RunProcessOptions {
  /** Cancels the run for any reason (run cancelled, spot reclaim, breaker); the reason is kept. */
  readonly signal?: AbortSignal;
  /** The attempt's budget. */
  readonly timeoutMs: number;
  /** Between SIGTERM and SIGKILL. */
  readonly graceMs: number;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  /** Called with the child's PID (= its process group id) once it is running. */
  readonly onSpawn?: (pid: number) => void;
  /** Written to the tool's stdin, which is then closed (without it, stdin is /dev/null). */
  readonly input?: string;
}

export interface RunProcessResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly durationMs: number;
}

/** A tool that ran and failed: how it ended, and the end of what it said. */
export function toolExitError(
  file: string,
  exitCode: number | undefined,
  signal: string | undefined,
  stderr: string,
): ToolExitError {
  const how = signal ? `was killed by ${signal}` : `exited with ${exitCode}`;
  return new ToolExitError(
    `${file} ${how}: ${stderrTail(stderr) || '(no output)'}`,
    exitCode,
    signal,
    stderr,
  );
}

/** The end of a tool's stderr, for an error message: what it said last. */
const stderrTail = (text: string, max = 600) => (text.length > max ? `…${text.slice(-max)}` : text).trim();

/**
 * Runs a tool (argv array, never a shell) in its own process group (start-process.ts). On timeout or
 * cancellation the whole group is terminated (SIGTERM, grace, SIGKILL) and confirmed dead
 * before this function settles, so callers may then discard partial output safely.
 */
export async function runProcess(
  file: string,
  args: readonly string[],
  options: RunProcessOptions,
): Promise<RunProcessResult> {
  options.signal?.throwIfAborted();
  const started = Date.now();
  const { child, pgid } = startProcess(file, args, {
    env: options.env,
    cwd: options.cwd,
    input: options.input !== undefined,
  });
  if (pgid === undefined) {
    const result = await child;
    throw new ToolStartError(`${file} could not be started: ${result.message ?? 'no pid'}`, {
      cause: result,
    });
  }
  options.onSpawn?.(pgid);
  if (options.input !== undefined) child.stdin?.end(options.input);

  const watch = watchGroup(pgid, options);
  // Helpers left behind hold the output pipes open, so the result would never settle: when
  // the leader exits, whatever is left of its group is terminated.
  child.once('exit', () => {
    if (!watch.stopping && !groupGone(pgid)) watch.stop('cleanup');
  });

  try {
    // A group that survives SIGKILL never lets the child settle: its error must end the wait.
    const result = await Promise.race([child, watch.unkillable]);
    await watch.settle(file);
    const durationMs = Date.now() - started;
    if (result.failed) {
      if ((result as { code?: string }).code === 'ENOENT') {
        throw new ToolStartError(`${file} is not installed or not on PATH`, { cause: result });
      }
      throw toolExitError(file, result.exitCode, result.signal, String(result.stderr ?? ''));
    }
    return { stdout: String(result.stdout ?? ''), stderr: String(result.stderr ?? ''), durationMs };
  } finally {
    // Whatever threw above, the group is dead before we return: terminate it if it is not.
    if (!watch.stopping && !groupGone(pgid)) watch.stop('cleanup');
    await watch.dispose();
    forgetGroup(pgid);
  }
}
