import { readFileSync } from 'node:fs';
import { processTable } from '../../lib/process/process-table.js';

/** Processes started by `pid`, at any depth: other test runs on this machine are not ours to judge. */
export function descendantsOf(pid: number): Set<number> {
  const table = processTable();
  const found = new Set<number>([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of table) {
      if (found.has(p.ppid) && !found.has(p.pid)) {
        found.add(p.pid);
        grew = true;
      }
    }
  }
  return found;
}

/** Workers of the pool in process `poolPid`, found by the id the pool gives them (even once reparented). */
export function poolWorkersOf(poolPid: number): number[] {
  const id = new RegExp(`^GEOHUB_WORKER_ID=local-\\d+-\\d+-${poolPid}$`);
  return processTable()
    .filter((p) => p.state !== 'Z' && p.command.startsWith('geohub-worker'))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p.pid}/environ`, 'utf8')
          .split('\0')
          .some((e) => id.test(e));
      } catch {
        return false; // gone meanwhile
      }
    })
    .map((p) => p.pid);
}
