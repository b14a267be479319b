import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RUN_OUTPUTS } from '../../lib/coordination/run-outputs.js';
import type { RunRecord } from '../../lib/model/run.js';
import type { RunSummary } from './run-job-options.js';

const present = (path: string) => (existsSync(path) ? path : undefined);

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
      mosaic: present(join(dir, RUN_OUTPUTS.mosaic)),
      stac: present(join(dir, RUN_OUTPUTS.collection)),
      pmtiles: present(join(dir, RUN_OUTPUTS.pmtiles)),
    },
    durationMs: Date.now() - started,
    ...(reason ? { reason } : {}),
    ...(run?.warnings?.length ? { warnings: run.warnings } : {}),
  };
}
