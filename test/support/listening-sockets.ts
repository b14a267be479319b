import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** An address of /proc/net/tcp{,6} ("0100007F:1F90") as text: 127.0.0.1:8080, [::]:8080. */
function address(hex: string): string {
  const [ip, port] = hex.split(':') as [string, string];
  const p = Number.parseInt(port, 16);
  if (ip.length === 8) return `${Buffer.from(ip, 'hex').reverse().join('.')}:${p}`;
  // Four 32-bit words, each in the host's (little-endian) order.
  const bytes = Buffer.concat([0, 8, 16, 24].map((i) => Buffer.from(ip.slice(i, i + 8), 'hex').reverse()));
  const mapped = bytes.subarray(0, 12).equals(Buffer.from('00000000000000000000ffff', 'hex'));
  if (mapped) return `[::ffff:${[...bytes.subarray(12)].join('.')}]:${p}`;
  const groups = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
  return `[${groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::')}]:${p}`;
}

/** The TCP sockets in LISTEN state held by any of `pids`, as `address:port`, sorted. */
export function listeningSockets(pids: readonly number[]): string[] {
  return [...listenersOf(pids).keys()].sort();
}

/** The TCP sockets in LISTEN state held by any of `pids`: `address:port` → the pid holding it. */
export function listenersOf(pids: readonly number[]): Map<string, number> {
  const inodes = new Map<string, number>();
  for (const pid of pids) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone meanwhile
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.set(m[1]!, pid);
      } catch {
        // closed meanwhile
      }
    }
  }
  const found = new Map<string, number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').trim().split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f[3] === '0A' && inodes.has(f[9]!)) found.set(address(f[1]!), inodes.get(f[9]!)!);
    }
  }
  return found;
}

/** A process's resident memory, in bytes (VmRSS of /proc/<pid>/status). */
export function residentBytes(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for ${pid}`);
  return Number(kb) * 1024;
}
