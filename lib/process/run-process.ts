import { ToolCancelledError, ToolExitError, ToolStartError, ToolTimeoutError } from './errors.js';
import { forgetGroup, type StartedProcess, standDown, startProcess } from './start-process.js';
import { groupGone, terminateGroup } from './terminate-group.js';

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
  /**
   * The process to supervise instead of starting one: started earlier with this file, argv and
   * environment, waiting for its input (warm-spares.ts). Its budget starts now.
   */
  readonly started?: StartedProcess;
}

export interface RunProcessResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly durationMs: number;
}

const tail = (text: string, max = 600) => (text.length > max ? `…${text.slice(-max)}` : text).trim();

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
  if (options.signal?.aborted) {
    // A process started for this run has nothing to do: it holds no output yet, so no grace.
    if (options.started?.pgid !== undefined) standDown(options.started.pgid);
    options.signal.throwIfAborted();
  }
  const started = Date.now();
  const { child, pgid } =
    options.started ??
    startProcess(file, args, { env: options.env, cwd: options.cwd, input: options.input !== undefined });
  if (pgid === undefined) {
    const result = await child;
    throw new ToolStartError(`${file} could not be started: ${result.message ?? 'no pid'}`, {
      cause: result,
    });
  }
  options.onSpawn?.(pgid);
  if (options.input !== undefined) child.stdin?.end(options.input);

  let stopping: { kind: 'timeout' } | { kind: 'cancel'; reason: unknown } | { kind: 'cleanup' } | undefined;
  let termination: Promise<unknown> | undefined;
  // A group that survives SIGKILL never lets the child settle: its error must end the wait.
  let survived: (error: unknown) => void = () => {};
  const unkillable = new Promise<never>((_, reject) => {
    survived = reject;
  });
  unkillable.catch(() => {});
  const stop = (why: NonNullable<typeof stopping>) => {
    if (stopping) return;
    stopping = why;
    termination = terminateGroup(pgid, { graceMs: options.graceMs });
    termination.catch(survived);
  };
  const timer = setTimeout(() => stop({ kind: 'timeout' }), options.timeoutMs);
  const onAbort = () => stop({ kind: 'cancel', reason: options.signal?.reason });
  options.signal?.addEventListener('abort', onAbort, { once: true });
  // Helpers left behind hold the output pipes open, so the result would never settle: when
  // the leader exits, whatever is left of its group is terminated.
  child.once('exit', () => {
    if (!stopping && !groupGone(pgid)) stop({ kind: 'cleanup' });
  });

  try {
    const result = await Promise.race([child, unkillable]);
    if (termination) await termination;
    const durationMs = Date.now() - started;
    if (stopping?.kind === 'timeout') {
      throw new ToolTimeoutError(`${file} exceeded its budget of ${options.timeoutMs} ms and was terminated`);
    }
    if (stopping?.kind === 'cancel') {
      throw new ToolCancelledError(`${file} was cancelled and terminated`, stopping.reason);
    }
    if (result.failed) {
      if ((result as { code?: string }).code === 'ENOENT') {
        throw new ToolStartError(`${file} is not installed or not on PATH`, { cause: result });
      }
      const stderr = String(result.stderr ?? '');
      const how = result.signal ? `was killed by ${result.signal}` : `exited with ${result.exitCode}`;
      throw new ToolExitError(
        `${file} ${how}: ${tail(stderr) || '(no output)'}`,
        result.exitCode,
        result.signal,
        stderr,
      );
    }
    return { stdout: String(result.stdout ?? ''), stderr: String(result.stderr ?? ''), durationMs };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    // Whatever threw above, the group is dead before we return: terminate it if it is not.
    if (!stopping && !groupGone(pgid)) stop({ kind: 'cleanup' });
    await termination;
    forgetGroup(pgid);
  }
}
