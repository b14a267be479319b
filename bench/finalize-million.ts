/**
 * Benchmark (not a test): finalize of a 1,000,000-sub-tile run on a local stack it starts and
 * stops itself. The markers are seeded through the ledger (claim + markDone per 4×4 metatile,
 * as workers write them: 62,500 items), each pointing at a small placeholder tile (only the
 * first uploaded: finalize reads one tile's header). Finalize runs as the local stack runs the
 * Lambda: in a container thread held to its serverless.yml memory size and timeout, with the
 * configured request timeout. Records its wall time and the process's peak memory, and how long
 * gdalinfo takes to open the mosaic; prints them and saves JSON to .bench/.
 *
 *   node --import tsx bench/finalize-million.ts [side] [heap MiB]
 *
 * side² sub-tiles (default 1000); the container's heap cap defaults to the function's memorySize
 * (a smaller one shows how little finalize needs).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FinalizeResult } from '../lib/coordination/finalize-run.js';
import { RUN_OUTPUTS } from '../lib/coordination/run-outputs.js';
import { runPrefix } from '../lib/model/ids.js';
import { projectRoot } from '../local/project-root.js';
import { readLambdaLimits } from '../local/statemachine/lambda-limits.js';
import { createLambdaPool } from '../local/statemachine/lambda-pool.js';
import { seedDoneRun } from '../test/support/seed-markers.js';
import { memoryProbe, mib, withBenchStack } from './support/local-bench.js';

const SIDE = Number(process.argv[2] ?? 1000);
const HEAP_MIB = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
async function main() {
  await withBenchStack(async ({ stack, store, ledger, scratch }) => {
    const run = { runId: 'r-bench-finalize-million', z: 18, x0: 130_000, y0: 90_000, side: SIDE };

    const seedStart = performance.now();
    let reported = 0;
    await seedDoneRun({ ledger, store }, run, {
      everyObject: false,
      parallel: 16,
      onProgress: (n) => {
        if (n - reported >= 50_000) {
          reported = n;
          console.error(`seeded ${n} markers in ${Math.round((performance.now() - seedStart) / 1000)} s`);
        }
      },
    });
    const seedMs = performance.now() - seedStart;

    // The function logs its phases at debug level from its container thread as they end.
    process.env.GEOHUB_LOG_LEVEL = 'debug';
    const configured = readLambdaLimits().finalize!;
    const lambda = { ...configured, memoryMiB: HEAP_MIB ?? configured.memoryMiB };
    const pool = createLambdaPool({ env: stack.env, limits: { finalize: lambda } });
    let result: FinalizeResult;
    const before = process.memoryUsage();
    const probe = memoryProbe();
    const start = performance.now();
    try {
      result = (await pool.invoke('finalize', { runId: run.runId })) as FinalizeResult;
    } finally {
      await pool.stop();
    }
    const finalizeMs = performance.now() - start;
    const memory = probe.stop();
    console.error(`finalize: ${result.status} in ${Math.round(finalizeMs)} ms`);

    // Open the mosaic as a user would: the top-level VRT and its block VRTs beside it.
    const prefix = runPrefix(run.runId);
    let blocks = 0;
    let metadataBytes = 0;
    for await (const o of store.list(prefix)) {
      metadataBytes += o.bytes;
      const rel = o.key.slice(prefix.length);
      if (rel !== RUN_OUTPUTS.mosaic && !rel.startsWith(RUN_OUTPUTS.mosaicBlocks)) continue;
      if (rel.startsWith(RUN_OUTPUTS.mosaicBlocks)) blocks += 1;
      mkdirSync(dirname(join(scratch, rel)), { recursive: true });
      await store.download(o.key, join(scratch, rel));
    }
    const infoStart = performance.now();
    const info = JSON.parse(
      execFileSync('gdalinfo', ['-json', join(scratch, RUN_OUTPUTS.mosaic)], { encoding: 'utf8' }),
    );
    const gdalinfoMs = performance.now() - infoStart;

    const figures = {
      bench: 'finalize-million',
      at: new Date().toISOString(),
      node: process.version,
      subTiles: SIDE * SIDE,
      status: result.status,
      seedSeconds: Math.round(seedMs / 1000),
      finalize: {
        ms: Math.round(finalizeMs),
        baselineRssMiB: mib(before.rss),
        ...memory,
        lambda,
        phases: result.phases,
      },
      mosaic: { blocks, size: info.size, gdalinfoMs: Math.round(gdalinfoMs) },
      metadataMiB: mib(metadataBytes),
    };
    console.log(JSON.stringify(figures, null, 2));
    mkdirSync(join(projectRoot(), '.bench'), { recursive: true });
    writeFileSync(
      join(projectRoot(), '.bench/finalize-million.json'),
      `${JSON.stringify(figures, null, 2)}\n`,
    );
  });
}

await main();
