import { readFileSync } from 'node:fs';
import type { ProcessInfo } from './process-table.js';

/**
 * Set in every tool's environment by the process that starts it (start-process.ts): the PID of
 * its owner. With it the self-check tells a sibling worker's live engine, which may be older
 * than any budget (it serves many requests), from an orphan: the owner is gone, or no longer
 * among the tool's ancestors (the tool was reparented, and the PID perhaps reused).
 */
export const TOOL_OWNER_ENV = 'GEOHUB_TOOL_OWNER';

/** The owner PID a tool was started with, or undefined (not ours, or unreadable). */
export function toolOwner(pid: number): number | undefined {
  try {
    const entry = readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .find((e) => e.startsWith(`${TOOL_OWNER_ENV}=`));
    const owner = Number(entry?.slice(TOOL_OWNER_ENV.length + 1));
    return Number.isInteger(owner) && owner > 0 ? owner : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An orphan: a tool whose parent is gone. One we started (it carries the owner mark) is an
 * orphan when its owner is dead or no longer among its ancestors (reparented; the PID perhaps
 * reused), so a sibling worker's engine is not one. One without the mark is someone else's
 * (another program on a shared machine): it is an orphan only once reparented to init, as its
 * own parent, alive, may still be waiting for it.
 */
export function isOrphan(
  tool: ProcessInfo,
  owner: number | undefined,
  table: readonly ProcessInfo[],
): boolean {
  if (owner === undefined) return tool.ppid <= 1;
  const byPid = new Map(table.map((p) => [p.pid, p]));
  let at = byPid.get(tool.ppid);
  // A process tree is shallow; the bound only guards against a table read mid-change.
  for (let depth = 0; at !== undefined && depth < 64; depth += 1) {
    if (at.pid === owner) return at.state === 'Z';
    at = byPid.get(at.ppid);
  }
  return true;
}
