import { ToolCancelledError, ToolTimeoutError } from './errors.js';
import { terminateGroup } from './terminate-group.js';

export interface GroupWatchOptions {
  /** Cancels the work (run cancelled, spot reclaim, breaker); the reason is kept. */
  readonly signal?: AbortSignal;
  /** The work's budget. */
  readonly timeoutMs: number;
  /** Between SIGTERM and SIGKILL. */
  readonly graceMs: number;
}

export interface GroupWatch {
  /** Why the group is being terminated, if it is. */
  readonly stopping: 'timeout' | 'cancel' | 'cleanup' | undefined;
  /** Rejects only if the group survives SIGKILL (it then never exits): race the work against it. */
  readonly unkillable: Promise<never>;
  /** Terminates the group (SIGTERM, grace, SIGKILL); the first reason given is kept. */
  stop(why: 'timeout' | 'cancel' | 'cleanup'): void;
  /**
   * Once the work has settled: waits for a termination under way, then throws the timeout or
   * cancel that caused it (`file` names the tool).
   */
  settle(file: string): Promise<void>;
  /** Stops the timer and the cancel listener; waits for a termination under way. */
  dispose(): Promise<void>;
}

/**
 * A tool's process group under its budget and cancellation: at the timeout or the abort the whole
 * group is terminated, and whoever waits on the tool learns why once the group is confirmed dead.
 */
export function watchGroup(pgid: number, options: GroupWatchOptions): GroupWatch {
  let stopping: GroupWatch['stopping'];
  let termination: Promise<unknown> | undefined;
  let survived: (error: unknown) => void = () => {};
  const unkillable = new Promise<never>((_, reject) => {
    survived = reject;
  });
  unkillable.catch(() => {});
  const stop = (why: NonNullable<GroupWatch['stopping']>) => {
    if (stopping) return;
    stopping = why;
    termination = terminateGroup(pgid, { graceMs: options.graceMs });
    termination.catch(survived);
  };
  const timer = setTimeout(() => stop('timeout'), options.timeoutMs);
  const onAbort = () => stop('cancel');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  return {
    get stopping() {
      return stopping;
    },
    unkillable,
    stop,
    async settle(file) {
      if (termination) await termination;
      if (stopping === 'timeout') {
        throw new ToolTimeoutError(
          `${file} exceeded its budget of ${options.timeoutMs} ms and was terminated`,
        );
      }
      if (stopping === 'cancel') {
        throw new ToolCancelledError(`${file} was cancelled and terminated`, options.signal?.reason);
      }
    },
    async dispose() {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      await termination;
    },
  };
}
