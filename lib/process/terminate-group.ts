import { ProcessGroupSurvivedError } from './errors.js';
import { processTable } from './process-table.js';

export interface TerminateOptions {
  /** Time between SIGTERM and SIGKILL. */
  readonly graceMs: number;
  /** How long to wait for the group to vanish after SIGKILL before declaring it a survivor. */
  readonly killWaitMs?: number;
  readonly pollMs?: number;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** True once no live (non-zombie) process is left in the group. */
export function groupGone(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return true;
    throw error;
  }
  // Something answers; zombies do too, but they hold no memory and no open files.
  return !processTable().some((p) => p.pgid === pgid && p.state !== 'Z');
}

async function waitGone(pgid: number, ms: number, pollMs: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!groupGone(pgid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  return true;
}

/**
 * Terminates a whole process group: SIGTERM, up to `graceMs` to exit, then SIGKILL, and
 * returns only once every member is confirmed dead. Signalling the group (not the pid) is
 * what reaches the tool's helpers, which would otherwise outlive it.
 */
export async function terminateGroup(pgid: number, options: TerminateOptions): Promise<'exited' | 'killed'> {
  const pollMs = options.pollMs ?? 25;
  if (groupGone(pgid)) return 'exited';
  signalGroup(pgid, 'SIGTERM');
  if (await waitGone(pgid, options.graceMs, pollMs)) return 'exited';
  signalGroup(pgid, 'SIGKILL');
  if (await waitGone(pgid, options.killWaitMs ?? 5_000, pollMs)) return 'killed';
  throw new ProcessGroupSurvivedError(`process group ${pgid} survived SIGKILL`);
}

/** Synchronous last resort for process exit: SIGKILL, no waiting. */
export function killGroupNow(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // gone already
  }
}
