import { readFileSync } from 'node:fs';

const TICKS = 100;

/** CPU seconds (user + system) a process has used itself, children excluded; 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
}

export const totalCpu = (pids: readonly number[]) => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
