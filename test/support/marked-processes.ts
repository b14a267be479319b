import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { processTable } from '../../lib/process/process-table.js';

const MARK = 'GEOHUB_TEST_MARK';

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
        .filter((p) => {
          try {
            return readFileSync(`/proc/${p.pid}/environ`, 'utf8').split('\0').includes(entry);
          } catch {
            return false; // gone meanwhile
          }
        })
        .map((p) => `${p.pid} ${p.command} ${p.args.slice(0, 100)}`),
  };
}
