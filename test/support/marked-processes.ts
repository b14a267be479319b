import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { processTable } from '../../lib/process/process-table.js';

const MARK = 'GEOHUB_TEST_MARK';

/** Whether a live process carries `NAME=value` in its environment (false once it is gone). */
export function hasEnvEntry(pid: number, entry: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(entry);
  } catch {
    return false; // gone meanwhile
  }
}

/**
 * An environment marker for the processes one test starts: every child inherits it (Java,
 * workers, tools), so the test can judge its own processes and not another run's on a shared
 * machine, even after they were reparented or moved to groups of their own.
 */
export function processMark(): {
  env: Record<string, string>;
  live: () => string[];
  /** The whole command lines of the live marked processes. */
  commandLines: () => string[];
} {
  const value = randomUUID();
  const entry = `${MARK}=${value}`;
  const marked = () =>
    processTable()
      .filter((p) => p.state !== 'Z' && p.pid !== process.pid)
      .filter((p) => hasEnvEntry(p.pid, entry));
  return {
    env: { [MARK]: value },
    live: () => marked().map((p) => `${p.pid} ${p.command} ${p.args.slice(0, 100)}`),
    commandLines: () => marked().map((p) => p.args),
  };
}

/**
 * Marks every process this test file starts from here on (children inherit the environment), so
 * a check judges this file's processes alone while other files run beside it in other forks.
 */
export function markFileProcesses(): { live: () => ReturnType<typeof processTable> } {
  const entry = `GEOHUB_FILE_MARK=${randomUUID()}`;
  process.env.GEOHUB_FILE_MARK = entry.slice('GEOHUB_FILE_MARK='.length);
  return {
    live: () =>
      processTable().filter((p) => p.state !== 'Z' && p.pid !== process.pid && hasEnvEntry(p.pid, entry)),
  };
}
