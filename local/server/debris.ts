import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { findFiles } from '../../lib/fs/find-files.js';
import { PART_SUFFIX } from '../../lib/output/atomic-output.js';
import { processTable } from '../../lib/process/process-table.js';
import { isToolProcess } from '../../lib/process/tool-processes.js';

export interface Debris {
  readonly parts: string[];
  /** Tool processes (GDAL, PDAL, the point-cloud extractor) not in a live worker's process group. */
  readonly orphans: { pid: number; command: string; ageSeconds: number }[];
}

/**
 * What a cancel must never leave behind, on this machine: `.part` files in the workers'
 * scratch directories, and tool processes whose worker is gone (their parent is no longer
 * a geohub worker).
 */
export function findDebris(
  workerPids: readonly number[],
  scratchDirs?: readonly string[],
  /** Only tools started by the pool in this process (their worker id ends with its pid). */
  ownerPid?: number,
  /** Only `.part` files of this run (a worker writes them under `out/<runId>/`). */
  runId?: string,
): Debris {
  const scratch =
    scratchDirs ??
    readdirSync(tmpdir())
      .filter((d) => d.startsWith('geohub-pool-'))
      .map((d) => join(tmpdir(), d));
  const table = processTable();
  const live = new Set(workerPids);
  const orphans = table
    .filter((p) => isToolProcess(p) && !live.has(p.ppid))
    .filter((p) => ownerPid === undefined || workerIdOf(p.pid)?.endsWith(`-${ownerPid}`))
    .map((p) => ({ pid: p.pid, command: p.args.slice(0, 200), ageSeconds: Math.round(p.ageSeconds) }));
  // Another run still in flight on the same workers has `.part` files by right: not this run's debris.
  const parts = scratch
    .flatMap((d) => safeFind(d))
    .filter((p) => runId === undefined || p.split(sep).includes(runId));
  return { parts, orphans };
}

/** A scratch directory may vanish while we look (its worker exited): that is no debris. */
function safeFind(dir: string): string[] {
  try {
    return findFiles(dir, (n) => n.endsWith(PART_SUFFIX));
  } catch {
    return [];
  }
}

/** The worker id a tool inherited from its worker; undefined if unreadable (another user's). */
function workerIdOf(pid: number): string | undefined {
  try {
    const entry = readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .find((e) => e.startsWith('GEOHUB_WORKER_ID='));
    return entry?.slice('GEOHUB_WORKER_ID='.length);
  } catch {
    return undefined;
  }
}
