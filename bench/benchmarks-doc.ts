/**
 * docs/benchmarks.md, whole, from the results of `npm run bench` (docs/benchmarks.json, committed
 * beside it): the table with the commit, date, machine and load it was measured on, notes on how
 * rows are measured (no figures in them: every figure is in the table), and the hand-written
 * "Tried and not kept" list (bench/tried-and-not-kept.md), included as it is.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pyramidTable } from './pyramid-table.js';
import { startupTable } from './startup-table.js';
import { sizeTable } from './support/size-table.js';
import { type BenchResults, benchTable, olderNote } from './table.js';

export const DOC = 'docs/benchmarks.md';
export const RESULTS = 'docs/benchmarks.json';
export const TRIED = 'bench/tried-and-not-kept.md';

const NOTES = `## How the rows are measured

- **Against the raw tool and GDAL's tiler**: each contender once per round, so that all meet the
  same load; \`gdalwarp\` as a user types it (GDAL's approximate transformer, geohub's default too;
  the exact one is a job option, \`"transformer": "exact"\`, compared in its own row). Each raster at
  its native zoom and one deeper. geohub is shown both without its start-up (stack up, workers
  polling) and with it (\`geohub run\` from command to exit); \`gdal2tiles.py\` always includes its
  own. Where the tiler made another number of tiles, the ratio is per 1,000 tiles. \`geohub run\`
  is also timed on a \`geohub up\` left running (the built CLI, its own 2 workers, started before
  the rounds and warmed by one untimed run of the same job, idle between the contenders): the
  command a user types once an up is there. The 20-tile job is the small job of issue 40, with its
  own targets (in the table: cold, and on a running up).
- **Kill grace**: SIGTERM sent to the metatile engine's group half a second into a lanczos warp,
  timed to the group gone; the source read over \`/vsis3/\` from the S3 stand-in, then from a local
  copy (docs/cost.md).
- **Point clouds**: one DTM sub-tile after another, as a worker makes them, with each engine (the
  \`pdal\` of ../shared/tools unpacked, or the one on PATH); the synthetic cloud is random points,
  unclassified, so PDAL runs SMRF on every point: the sizing's worst case, checked against the
  split's own plan for that file (lib/split/metatile-size.ts).
- **SIGTERM rows**: the worker holds at most two metatiles (one in its tool, one uploading); "in
  flight" counts the sub-tiles of the metatiles it had claimed at the signal, read from the ledger
  just before and after it. With the production grace it finishes them; with no grace left it gives
  them back, and only they are redone.
- **Re-run row**: timed until every message is handled (one round trip to the ledger each, no tool)
  and until the queue is empty.
- **Finalize**: the finalize function in its local Lambda container over markers seeded through the
  ledger (\`npm run bench:finalize [side] [heap MiB]\`), placeholder tiles.
- **Requests and cost**: SDK middleware in the workers and the coordinator, plus a counting proxy in
  front of the local S3 for GDAL's own ranged reads; us-east-1 list prices (bench/support/price.ts),
  Step Functions at AWS's cadence of progress checks (the counted run waits between checks as on AWS).
`;

export function benchmarksDoc(results: BenchResults, tried: string): string {
  return [
    '# Benchmarks',
    '',
    `<!-- Written whole by \`npm run bench\` (bench/benchmarks-doc.ts) from ${RESULTS}, the raw results of the run, committed beside it; the list at the end is ${TRIED}. Edit those, not this file. -->`,
    '',
    benchTable(results),
    '',
    ...(results.overhead.length > 0
      ? [sizeTable(results.overhead, results.workers, olderNote(results, 'overhead')), '']
      : []),
    ...(results.startup ? [startupTable(results.startup, olderNote(results, 'startup')), ''] : []),
    ...(results.pyramid ? [pyramidTable(results.pyramid), ''] : []),
    NOTES,
    '## Tried and not kept',
    '',
    tried.trim(),
    '',
  ].join('\n');
}

/** Writes docs/benchmarks.json and docs/benchmarks.md from `results`. */
export function writeBenchmarkDocs(root: string, results: BenchResults): void {
  writeFileSync(join(root, RESULTS), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(root, DOC), benchmarksDoc(results, readFileSync(join(root, TRIED), 'utf8')));
}
