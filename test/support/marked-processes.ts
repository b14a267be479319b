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

/** Processes started by this test run (the suite mark set in vitest.config.ts), this one excluded. */
export function suiteProcesses(): ReturnType<typeof processTable> {
  const mark = process.env.GEOHUB_SUITE_MARK;
  if (!mark) throw new Error('GEOHUB_SUITE_MARK is not set: run the tests through vitest.config.ts');
  return processTable().filter(
    (p) => p.state !== 'Z' && p.pid !== process.pid && hasEnvEntry(p.pid, `GEOHUB_SUITE_MARK=${mark}`),
  );
}

/**
 * An environment marker for the processes one test starts: every child inherits it (Java,
 * workers, tools), so the test can judge its own processes and not another run's on a shared
 * machine, even after they were reparented or moved to groups of their own.
 */
export function processMark(): { env: Record<string, string>; live: () => string[] } {
  const value = randomUUID();
  const entry = `${MARK}=${value}`;
  return {
    env: { [MARK]: value },
    live: () =>
      processTable()
        .filter((p) => p.state !== 'Z' && p.pid !== process.pid)
        .filter((p) => hasEnvEntry(p.pid, entry))
        .map((p) => `${p.pid} ${p.command} ${p.args.slice(0, 100)}`),
  };
}
