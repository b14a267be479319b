import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../local/project-root.js';

/** Builds the worker bundle (scripts/bundle-worker.mjs) into a new temporary directory; the caller removes it. */
export function buildWorkerBundle(): string {
  const dir = mkdtempSync(join(tmpdir(), 'geohub-bundle-'));
  execFileSync(process.execPath, [join(projectRoot(), 'scripts', 'bundle-worker.mjs'), '--outdir', dir], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return dir;
}

/** Host PIDs of the direct children of a process (from /proc, no `ps`). */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** The PID namespace a process lives in (its /proc/<pid>/ns/pid link), or undefined once it is gone. */
export function pidNamespaceOf(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/pid`);
  } catch {
    return undefined;
  }
}

/** Host PIDs of the processes of one PID namespace, with their PID inside it (NSpid's last field). */
export function processesInNamespace(namespace: string): { hostPid: number; nsPid: number; pgid: number }[] {
  const out: { hostPid: number; nsPid: number; pgid: number }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || pidNamespaceOf(Number(name)) !== namespace) continue;
    try {
      const status = readFileSync(`/proc/${name}/status`, 'utf8');
      const nspid = /^NSpid:\s+(.+)$/m.exec(status)?.[1]?.trim().split(/\s+/).map(Number) ?? [];
      const state = /^State:\s+(\S)/m.exec(status)?.[1];
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const pgid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (state !== 'Z') out.push({ hostPid: Number(name), nsPid: nspid.at(-1)!, pgid });
    } catch {
      // gone while we looked
    }
  }
  return out;
}
