import { findFiles } from '../lib/fs/find-files.js';
import { PART_SUFFIX } from '../lib/output/atomic-output.js';
import { type ProcessInfo, processTable } from '../lib/process/process-table.js';
import { isToolProcess } from '../lib/process/tool-processes.js';

export interface SelfCheckOptions {
  readonly scratchDir: string;
  /** Any GDAL/PDAL process older than this is an orphan of a cancel that did not complete. */
  readonly maxToolAgeSeconds: number;
  readonly processes?: () => readonly ProcessInfo[];
}

/**
 * The worker's start-up self-check (docs/architecture.md, "Invariants", 7): orphaned tool
 * processes and stale partial outputs are debris of a cancellation that went wrong. Returns the
 * problems found (empty = healthy).
 */
export async function selfCheck(options: SelfCheckOptions): Promise<string[]> {
  const problems: string[] = [];
  const table = (options.processes ?? processTable)();
  for (const p of table) {
    if (isToolProcess(p) && p.ageSeconds > options.maxToolAgeSeconds) {
      problems.push(
        `orphaned ${p.command} process ${p.pid} running for ${Math.round(p.ageSeconds)} s ` +
          `(longer than any budget, ${options.maxToolAgeSeconds} s): ${p.args.slice(0, 200)}`,
      );
    }
  }
  for (const part of findFiles(options.scratchDir, (n) => n.endsWith(PART_SUFFIX)))
    problems.push(`stale partial output ${part}`);
  return problems;
}
