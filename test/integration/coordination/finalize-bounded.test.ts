import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FinalizeResult } from '../../../lib/coordination/finalize-run.js';
import { RUN_OUTPUTS } from '../../../lib/coordination/run-outputs.js';
import { runPrefix } from '../../../lib/model/ids.js';
import { createLambdaPool } from '../../../local/statemachine/lambda-pool.js';
import { seedDoneRun } from '../../support/seed-markers.js';
import { walkStacCatalog } from '../../support/stac-items.js';
import { stackClients } from '../../support/stack-clients.js';
import { tempDir } from '../../support/temp-dir.js';

// 40,000 sub-tiles, the short version of bench/finalize-million.ts. The container's heap is
// capped at 80 MB, of which the function's code and SDK clients take 40–48 MB (measured: a
// 64-tile finalize runs at 48 MB, not at 40): finalize's own state must stay within ~35 MB. One
// VRT string (~16 MB here) beside all items built in memory (~30 MB of JSON from more in
// item objects) would not fit; typed arrays and a block at a time do.
const RUN = { runId: 'r-finalize-bounded', z: 18, x0: 64 * 2000, y0: 64 * 1400, side: 200 };
const HEAP_MIB = 80;
const { clients, env, ledger, store } = stackClients();
afterAll(() => clients.destroy());

describe('finalize in bounded memory', () => {
  it(`finalizes ${RUN.side ** 2} sub-tiles in a container capped at ${HEAP_MIB} MB: mosaic in block VRTs, STAC in block catalogs`, async () => {
    await seedDoneRun({ ledger, store }, RUN, { everyObject: false, parallel: 16, metatileSide: 8 });
    const pool = createLambdaPool({
      env,
      limits: { finalize: { memoryMiB: HEAP_MIB, timeoutSeconds: 600 } },
    });
    let result: FinalizeResult;
    try {
      result = (await pool.invoke('finalize', { runId: RUN.runId })) as FinalizeResult;
    } finally {
      await pool.stop();
    }
    expect(result.status).toBe('SUCCEEDED');
    expect((await ledger.getRun(RUN.runId))?.status).toBe('SUCCEEDED');

    // The run's metadata as written: 4 × 4 blocks of 64² tiles, each a VRT and a STAC catalog.
    const out = tempDir('geohub-finalize-bounded-');
    const prefix = runPrefix(RUN.runId);
    const names: string[] = [];
    for await (const o of store.list(prefix)) {
      const rel = o.key.slice(prefix.length);
      names.push(rel);
      mkdirSync(dirname(join(out, rel)), { recursive: true });
      await store.download(o.key, join(out, rel));
    }
    expect(names.filter((n) => n.startsWith(RUN_OUTPUTS.mosaicBlocks))).toHaveLength(16);
    // 16 block catalogs, and an item per aligned 4×4 group: 50 × 50 of them.
    expect(names.filter((n) => /^items\/\d+-\d+\/catalog\.json$/.test(n))).toHaveLength(16);
    expect(names.filter((n) => /^items\/\d+-\d+\/18-\d+-\d+\.json$/.test(n))).toHaveLength(50 * 50);
    const summary = JSON.parse(readFileSync(join(out, RUN_OUTPUTS.summary), 'utf8'));
    expect(summary).toMatchObject({ status: 'SUCCEEDED', tiles: RUN.side ** 2, problemCount: 0 });

    // GDAL opens the mosaic from the top-level VRT and its blocks' declared sizes alone.
    const info = JSON.parse(
      execFileSync('gdalinfo', ['-json', join(out, RUN_OUTPUTS.mosaic)], { encoding: 'utf8' }),
    );
    expect(info.size).toEqual([RUN.side * 256, RUN.side * 256]);
    // Every tile is an asset of exactly one item reached by links from the collection.
    const { tiles } = walkStacCatalog(out);
    expect(tiles).toHaveLength(RUN.side ** 2);
    expect(new Set(tiles.map((t) => t.name)).size).toBe(RUN.side ** 2);
    console.log(`finalize of ${RUN.side ** 2} sub-tiles: ${JSON.stringify(result.phases)}`);
  }, 600_000);
});
