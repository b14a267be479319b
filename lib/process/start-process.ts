import { execa, type ResultPromise } from 'execa';
import { killGroupNow } from './terminate-group.js';
import { TOOL_OWNER_ENV } from './tool-owner.js';

/** A tool process running in a process group of its own (its PID is the group's id). */
export interface StartedProcess {
  readonly child: ResultPromise<{ stdin: 'pipe' | 'ignore'; reject: false }>;
  /** Undefined when the process could not be started at all. */
  readonly pgid: number | undefined;
}

export interface StartProcessOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  /** Open a pipe to its stdin (the tool reads its input there); otherwise stdin is /dev/null. */
  readonly input?: boolean;
  /**
   * Its output is read by the caller as it comes (a serving engine lives for many requests);
   * otherwise it is buffered and given whole when the process exits.
   */
  readonly stream?: boolean;
}

// Groups still running: killed synchronously if this process exits without cleaning up.
const liveGroups = new Set<number>();
process.once('exit', () => {
  for (const pgid of liveGroups) killGroupNow(pgid);
});

/** Forgets a group once it is confirmed dead (the exit hook above no longer needs to kill it). */
export function forgetGroup(pgid: number): void {
  liveGroups.delete(pgid);
}

/**
 * Starts a tool (argv array, never a shell) in its own process group, so one signal reaches every
 * helper it starts. Its life cycle is the caller's: runProcess supervises it, an engine pool keeps
 * it serving requests (engine-pool.ts); if this process exits first, the group is killed.
 */
export function startProcess(
  file: string,
  args: readonly string[],
  options: StartProcessOptions,
): StartedProcess {
  const child = execa(file, [...args], {
    detached: true,
    cleanup: false, // the group's life cycle is ours, not execa's
    stdin: options.input ? 'pipe' : 'ignore',
    reject: false,
    shell: false,
    // The owner mark lets a self-check tell our live tools from orphans (tool-owner.ts).
    env: { ...options.env, [TOOL_OWNER_ENV]: String(process.pid) },
    extendEnv: options.env === undefined,
    cwd: options.cwd,
    maxBuffer: 4_000_000,
    buffer: !options.stream,
  });
  // A tool that exits without reading its input must not crash the worker with EPIPE.
  child.stdin?.on('error', () => {});
  const pgid = child.pid;
  if (pgid !== undefined) liveGroups.add(pgid);
  return { child, pgid };
}

/** Ends a process that was given no work (it holds no output): SIGKILL to its group at once. */
export function standDown(pgid: number): void {
  killGroupNow(pgid);
  forgetGroup(pgid);
}
