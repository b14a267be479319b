import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finalizeRun } from '../../../lib/coordination/finalize-run.js';
import { verifyRun } from '../../../lib/verify/verify-run.js';
import { copyRunOutputs } from '../../../local/cli/copy-outputs.js';
import { seedDoneRun, tileValue } from '../../support/seed-markers.js';
import { walkStacCatalog } from '../../support/stac-items.js';
import { stackClients } from '../../support/stack-clients.js';

// The CI-sized version of the million-sub-tile finalize (npm run bench): 70 × 70 tiles that
// straddle four 64-tile mosaic blocks, every marker written through the ledger.
const RUN = { runId: 'r-finalize-large-ci', z: 16, x0: 64 * 300 + 40, y0: 64 * 400 + 40, side: 70 };
const { clients, ledger, store } = stackClients();
const out = mkdtempSync(join(tmpdir(), 'geohub-finalize-'));

beforeAll(async () => {
  await seedDoneRun({ ledger, store }, RUN, { everyObject: true });
}, 600_000);
afterAll(() => {
  clients.destroy();
  rmSync(out, { recursive: true, force: true });
});

describe('finalize of a run with thousands of sub-tiles', () => {
  it('writes a mosaic of block VRTs and STAC in parts apart from the tiles; verify finds one object per marker', async () => {
    const result = await finalizeRun({ ledger, store }, RUN.runId);
    expect(result.status).toBe('SUCCEEDED');
    expect((await ledger.getRun(RUN.runId))?.status).toBe('SUCCEEDED');

    const total = RUN.side * RUN.side;
    const report = await verifyRun(ledger, store, RUN.runId);
    expect({
      markers: report.markers,
      objects: report.objects,
      gaps: report.gaps,
      unmarked: report.unmarked,
    }).toEqual({ markers: total, objects: total, gaps: [], unmarked: [] });
    const metadata: string[] = [];
    for await (const o of store.list(`runs/${RUN.runId}/`))
      metadata.push(o.key.slice(`runs/${RUN.runId}/`.length));
    // Tiles 19240…19309 on each axis: 18 aligned groups of 4 per side, none across a block edge.
    const items = metadata.filter((k) => /^items\/[0-9-]+\/16-\d+-\d+\.json$/.test(k));
    expect(items).toHaveLength(18 * 18);
    expect(metadata.filter((k) => !items.includes(k)).sort()).toEqual(
      [
        'collection.json',
        'items/300-400/catalog.json',
        'items/300-401/catalog.json',
        'items/301-400/catalog.json',
        'items/301-401/catalog.json',
        'mosaic.vrt',
        'mosaic/300-400.vrt',
        'mosaic/300-401.vrt',
        'mosaic/301-400.vrt',
        'mosaic/301-401.vrt',
        'summary.json',
      ].sort(),
    );

    await copyRunOutputs(store, RUN.runId, out);
    const info = JSON.parse(
      execFileSync('gdalinfo', ['-json', join(out, 'mosaic.vrt')], { encoding: 'utf8' }),
    );
    expect(info.size).toEqual([RUN.side * 256, RUN.side * 256]);
    // Catches: a tile or a block placed at the wrong offset in the mosaic (x and y swapped, a block
    // off by one). Read through GDAL, from the top-level VRT through the block VRTs to the tiles:
    // one pixel in each tile of the rows and columns where the blocks meet, of the edges and of
    // both diagonals, each of which must be its own tile's (seed-markers.ts: column + 256 × row).
    const lines = [0, 23, 24, RUN.side - 1];
    const cells = new Map<string, [number, number]>();
    for (let i = 0; i < RUN.side; i++) {
      for (const l of lines) {
        cells.set(`${i},${l}`, [i, l]);
        cells.set(`${l},${i}`, [l, i]);
      }
      cells.set(`${i},${i}`, [i, i]);
      cells.set(`${i},${RUN.side - 1 - i}`, [i, RUN.side - 1 - i]);
    }
    const sampledAt = Date.now();
    const values = execFileSync('gdallocationinfo', ['-valonly', join(out, 'mosaic.vrt')], {
      input: [...cells.values()].map(([col, row]) => `${col * 256 + 128} ${row * 256 + 128}`).join('\n'),
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .map(Number);
    console.info(`${cells.size} tiles sampled through the mosaic in ${Date.now() - sampledAt} ms`);
    const misplaced = [...cells.values()].flatMap(([col, row], i) => {
      const want = tileValue(RUN, { x: RUN.x0 + col, y: RUN.y0 + row });
      return values[i] === want ? [] : [`${col},${row}: ${values[i]} not ${want}`];
    });
    expect(values).toHaveLength(cells.size);
    expect(misplaced.slice(0, 5)).toEqual([]);

    // Walked by links alone, as a static-catalog reader does: every tile exactly once.
    const { tiles } = walkStacCatalog(out);
    expect(tiles).toHaveLength(total);
    expect(new Set(tiles.map((t) => t.assetPath)).size).toBe(total);
    for (const { assetPath } of tiles) expect(existsSync(assetPath)).toBe(true);
  }, 300_000); // thousands of objects through s3rver and GDAL: minutes on a loaded machine
});
