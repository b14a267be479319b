import { findFiles } from '../lib/fs/find-files.js';
import { PART_SUFFIX } from '../lib/output/atomic-output.js';
import { type ProcessInfo, processTable } from '../lib/process/process-table.js';
import { isOrphan, toolOwner } from '../lib/process/tool-owner.js';
import { isToolProcess } from '../lib/process/tool-processes.js';

export interface SelfCheckOptions {
  readonly scratchDir: string;
  /**
   * A GDAL/PDAL process older than this that no live worker owns is an orphan of a cancel that
   * did not complete. Age alone is not enough: a sibling worker's engine serves many requests
   * and outlives any budget while it works.
   */
  readonly maxToolAgeSeconds: number;
  readonly processes?: () => readonly ProcessInfo[];
  /** The owner PID a tool was started with (tool-owner.ts). */
  readonly ownerOf?: (pid: number) => number | undefined;
}

/**
 * The worker's start-up self-check (docs/architecture.md, "Invariants", 7): orphaned tool
 * processes and stale partial outputs are debris of a cancellation that went wrong. Returns the
 * problems found (empty = healthy).
 */
export async function selfCheck(options: SelfCheckOptions): Promise<string[]> {
  const problems: string[] = [];
  const table = (options.processes ?? processTable)();
  const ownerOf = options.ownerOf ?? toolOwner;
  for (const p of table) {
    if (!isToolProcess(p) || p.ageSeconds <= options.maxToolAgeSeconds) continue;
    // A sibling worker's engine is old but owned: its owner is alive and still its ancestor.
    if (isOrphan(p, ownerOf(p.pid), table)) {
      problems.push(
        `orphaned ${p.command} process ${p.pid} running for ${Math.round(p.ageSeconds)} s ` +
          `(longer than any budget, ${options.maxToolAgeSeconds} s, and its parent is gone): ${p.args.slice(0, 200)}`,
      );
    }
  }
  for (const part of findFiles(options.scratchDir, (n) => n.endsWith(PART_SUFFIX)))
    problems.push(`stale partial output ${part}`);
  return problems;
}
