import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTiles } from '../../../lib/ledger/tile-records.js';
import { verifyRun } from '../../../lib/verify/verify-run.js';
import { copyRunOutputs } from '../../../local/cli/copy-outputs.js';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import { expectSucceeded } from '../../support/expect-succeeded.js';
import { startTestHub } from '../../support/hub.js';
import { readTilePixels, type TilePixels } from '../../support/raster-pixels.js';
import { walkStacCatalog } from '../../support/stac-items.js';
import { tempDir } from '../../support/temp-dir.js';
import { tileTree } from '../../support/tile-tree.js';

// GDAL's autotest byte.tif: 20 × 20 pixels of 60 m in NAD27 / UTM 11N, reprojected to EPSG:3857.
const BYTE = new URL('../../fixtures/raster/byte.tif', import.meta.url).pathname;
// rasterio's RGB.byte.tif: 791 × 718 pixels of 300 m in UTM 18N, three Byte bands; native zoom 9.
const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
/** History events an execution's progress loop may write before it hands over (GEOHUB_LOOP_EVENT_BUDGET's default). */
const LOOP_EVENT_BUDGET = 15_000;
let hub: LocalHub;
beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(async () => {
  await hub?.stop();
});

/** The run's tiles marked done per level, with the execution's history events then, sampled until stopped. */
function sampleLevels(runId: string, executionArn: string) {
  const samples: { events: number; done: Map<number, number> }[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const events = hub.executions.get(executionArn)?.historyEvents ?? 0;
      const done = new Map<number, number>();
      for await (const t of listTiles(hub.ledger, runId))
        if (t.state === 'DONE') done.set(t.z, (done.get(t.z) ?? 0) + 1);
      samples.push({ events, done });
      // A sampling period, not a wait for an outcome: the run's end is awaited on its own.
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return samples;
    },
  };
}

/** For each level, the history events of the first sample in which it was as done as it ended. */
function eventsPerLevel(samples: { events: number; done: Map<number, number> }[]): Record<number, number> {
  const last = samples.at(-1)!.done;
  return Object.fromEntries(
    [...last.entries()].map(([z, n]) => [z, samples.find((s) => s.done.get(z) === n)!.events]),
  );
}

/**
 * A parent pixel as the test computes it, apart from GDAL: the mean of its 2 × 2 children that
 * hold data (nodata left out), or nodata where none does.
 */
function expectedParent(children: (TilePixels | undefined)[], band: number, col: number, row: number) {
  const values: number[] = [];
  for (let dy = 0; dy < 2; dy++)
    for (let dx = 0; dx < 2; dx++) {
      // The child tile this pixel's 2 × 2 block lies in, and the block's corner inside it.
      const cx = Math.floor((2 * col) / 256);
      const cy = Math.floor((2 * row) / 256);
      const child = children[cy * 2 + cx];
      if (!child) continue;
      const px = (2 * col) % 256;
      const py = (2 * row) % 256;
      const v = child.bands[band]![(py + dy) * 256 + px + dx]!;
      if (v !== child.nodata) values.push(v);
    }
  return values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0) / values.length;
}

/**
 * Runs `file` as a pyramid of `levels` ("min-max") and checks it against GDAL's own pyramid of
 * the same file and levels, and each lower tile against its children.
 */
async function checkPyramid(file: string, levels: string, bands: number) {
  const [min, max] = levels.split('-').map(Number) as [number, number];
  const started = await hub.upload(file, { job: { zoom: levels } });
  if (started.outcome !== 'started') throw new Error(`not started: ${JSON.stringify(started)}`);
  const sampling = sampleLevels(started.runId, started.executionArn);
  const execution = await hub.executions.wait(started.executionArn);
  const run = await hub.ledger.getRun(started.runId);
  expect(run?.reason).toBeUndefined();
  expectSucceeded(execution);
  // The state machine's history as each level was completed: the same loop drives every level,
  // a level ends after the one above it, and the execution stays far inside its budget.
  const events = eventsPerLevel(await sampling.stop());
  process.stdout.write(
    `${basename(file)} ${levels}: history events when each level was complete ${JSON.stringify(events)}, ${execution.historyEvents} at the end\n`,
  );
  const zooms = Array.from({ length: max - min + 1 }, (_, i) => max - i);
  expect(
    Object.keys(events)
      .map(Number)
      .sort((a, b) => b - a),
  ).toEqual(zooms);
  for (const z of zooms.slice(1)) expect(events[z]!).toBeGreaterThanOrEqual(events[z + 1]!);
  expect(execution.historyEvents).toBeLessThan(LOOP_EVENT_BUDGET);
  expect(run?.counters.done).toBe(run?.counters.total);
  expect(run?.params).toMatchObject({ zoom: max, minZoom: min, overviewResampling: 'average' });
  const report = await verifyRun(hub.ledger, hub.store, started.runId);
  expect(report.gaps).toEqual([]);
  expect(report.objects).toBe(run?.counters.total);

  const out = tempDir('geohub-pyramid-');
  await copyRunOutputs(hub.store, started.runId, out);
  const ours = tileTree(out, 'tif');
  expect(ours).toHaveLength(run!.counters.total);

  // GDAL's own pyramid of the same raster and levels: the tiles must lie exactly where its do.
  const peer = tempDir('geohub-pyramid-gdal2tiles-');
  execFileSync('gdal2tiles.py', ['--xyz', '-q', '-z', levels, '--processes=1', file, peer]);
  expect(ours).toEqual(tileTree(peer, 'png'));
  expect(new Set(ours.map((t) => Number(t.split('/')[0])))).toEqual(new Set(zooms));

  // Every lower tile from its four children, computed here from the tiles' pixels (geotiff.js).
  let compared = 0;
  let differing = 0;
  for (const name of ours.filter((t) => !t.startsWith(`${max}/`))) {
    const [z, x, y] = name.split('/').map(Number) as [number, number, number];
    const parent = await readTilePixels(join(out, `${name}.tif`));
    expect(parent.bands).toHaveLength(bands);
    const children = await Promise.all(
      [0, 1, 2, 3].map(async (i) => {
        const path = join(out, String(z + 1), String(2 * x + (i % 2)), `${2 * y + Math.floor(i / 2)}.tif`);
        return existsSync(path) ? readTilePixels(path) : undefined;
      }),
    );
    expect(children.some(Boolean)).toBe(true);
    let worst = 0;
    for (let band = 0; band < bands; band++)
      for (let row = 0; row < 256; row++)
        for (let col = 0; col < 256; col++) {
          const want = expectedParent(children, band, col, row);
          const got = parent.bands[band]![row * 256 + col]!;
          if (want === undefined) expect(got).toBe(parent.nodata);
          else {
            worst = Math.max(worst, Math.abs(got - want));
            compared++;
            // Where the four children differ, another resampling (nearest) would give another value.
            if (want !== Math.round(want)) differing++;
          }
        }
    // Byte pixels: the average rounded to a whole number.
    expect(worst, `tile ${name}`).toBeLessThanOrEqual(0.5 + 1e-9);
  }
  expect(compared).toBeGreaterThan(1000);
  expect(differing).toBeGreaterThan(100);

  // A mosaic per level, and the catalogue lists every level's tiles once.
  for (let z = min; z < max; z++) {
    const info = JSON.parse(
      execFileSync('gdalinfo', ['-json', join(out, `mosaic-${z}.vrt`)], { encoding: 'utf8' }),
    );
    expect(info.bands).toHaveLength(bands);
  }
  execFileSync('gdalinfo', ['-checksum', join(out, 'mosaic.vrt')]);
  const { tiles } = walkStacCatalog(out);
  expect(tiles).toHaveLength(ours.length);
}

describe('a pyramid: the base warped from the source, each lower level from the level above', () => {
  it('makes zooms 10-15 of a reprojected raster where gdal2tiles.py --xyz does, each lower pixel the average of its children', async () => {
    await checkPyramid(BYTE, '10-15', 1);
  }, 180_000);

  it('makes a textured RGB raster from its native zoom down to one tile (6-9)', async () => {
    await checkPyramid(RGB, '6-9', 3);
  }, 180_000);
});
