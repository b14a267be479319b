import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  /** The kernel's one-letter state: R, S, D, Z (zombie), T, … */
  readonly state: string;
  /** Seconds since the process started. */
  readonly ageSeconds: number;
  readonly command: string;
  readonly args: string;
}

// Linux only, read straight from /proc: we need the process group and the age, which the
// portable `ps` wrappers on npm do not report, and workers only ever run on Linux.
const CLOCK_TICKS = 100;

function uptimeSeconds(): number {
  return Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
}

function readProcess(pid: number, uptime: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command sits in parentheses and may itself contain spaces or parentheses.
    const close = stat.lastIndexOf(')');
    const command = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    return {
      pid,
      ppid: Number(fields[1]),
      pgid: Number(fields[2]),
      state: fields[0] ?? '?',
      ageSeconds: uptime - Number(fields[19]) / CLOCK_TICKS,
      command,
      args,
    };
  } catch {
    return undefined; // exited while we looked
  }
}

/** A snapshot of the machine's processes. */
export function processTable(): ProcessInfo[] {
  const uptime = uptimeSeconds();
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => readProcess(Number(name), uptime) ?? []);
}

/** True while a process with this PID exists and is not a zombie waiting to be reaped. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** The PIDs of every descendant of `pid`, deepest last. */
export function descendants(pid: number, table: readonly ProcessInfo[] = processTable()): number[] {
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const p of table) {
      if (p.ppid === parent) {
        out.push(p.pid);
        queue.push(p.pid);
      }
    }
  }
  return out;
}
