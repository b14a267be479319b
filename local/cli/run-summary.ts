import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RunRecord } from '../../lib/model/run.js';
import type { RunSummary } from './run-job-options.js';

/** What `geohub run` reports of a run, whichever stack ran it (a private one, or a running up). */
export function runSummary(
  runId: string,
  status: string,
  run: RunRecord | undefined,
  out: string,
  started: number,
  reason?: string,
): RunSummary {
  const c = run?.counters;
  const dir = resolve(out);
  return {
    runId,
    status,
    tiles: {
      total: c?.total ?? 0,
      done: c?.done ?? 0,
      failed: c?.failed ?? 0,
      cancelled: (c?.cancelled ?? 0) + (c?.parked ?? 0),
    },
    outputs: {
      dir,
      mosaic: existsSync(join(dir, 'mosaic.vrt')) ? join(dir, 'mosaic.vrt') : undefined,
      stac: existsSync(join(dir, 'collection.json')) ? join(dir, 'collection.json') : undefined,
    },
    durationMs: Date.now() - started,
    ...(reason ? { reason } : {}),
    ...(run?.warnings?.length ? { warnings: run.warnings } : {}),
  };
}
