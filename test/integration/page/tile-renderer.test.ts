import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTiles } from '../../../lib/ledger/tile-records.js';
import { isAlive } from '../../../lib/process/process-table.js';
import { runProcess } from '../../../lib/process/run-process.js';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import { startApiServer } from '../../../local/server/api-server.js';
import { hubRunControl } from '../../../local/server/hub-run-control.js';
import { createPage } from '../../../local/server/page/create-page.js';
import { RenderBusyError, TileNotRenderableError } from '../../../local/server/page/render/errors.js';
import { type GdalTool, runGdal } from '../../../local/server/page/render/gdal-tools.js';
import { createTileRenderer, type TileRenderer } from '../../../local/server/page/render/tile-renderer.js';
import { startTestHub } from '../../support/hub.js';
import { pngInfo } from '../../support/png-info.js';
import { tempDir } from '../../support/temp-dir.js';
import { waitUntil } from '../../support/wait-until.js';

const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const AUTZEN = new URL('../../../examples/pointcloud/autzen_trim.laz', import.meta.url).pathname;

interface Tile {
  z: number;
  x: number;
  y: number;
  bytes: number;
}

let hub: LocalHub;
let scratch: string;
const runs: Record<'rgb' | 'band' | 'dtm', { runId: string; tiles: Tile[] }> = {} as never;
const renderers: TileRenderer[] = [];

/** A renderer whose GDAL calls are counted, closed after the file whatever happens. */
function renderer(
  options: Parameters<typeof createTileRenderer>[0] extends infer O ? Partial<O> : never = {},
) {
  const stats = { calls: 0, running: 0, peak: 0 };
  const gdal: GdalTool = async (command, opts) => {
    stats.calls += 1;
    stats.running += 1;
    stats.peak = Math.max(stats.peak, stats.running);
    try {
      return await (options.gdal ?? runGdal)(command, opts);
    } finally {
      stats.running -= 1;
    }
  };
  const r = createTileRenderer({ store: hub.store, ledger: hub.ledger, ...options, gdal });
  renderers.push(r);
  return { r, stats };
}

async function finishedRun(file: string) {
  const started = await hub.upload(file);
  if (started.outcome !== 'started') throw new Error(`upload of ${file}: ${started.outcome}`);
  const execution = await hub.executions.wait(started.executionArn);
  expect(execution.status).toBe('SUCCEEDED');
  const tiles: Tile[] = [];
  for await (const t of listTiles(hub.ledger, started.runId)) {
    if (t.state === 'DONE' && t.output) tiles.push({ z: t.z, x: t.x, y: t.y, bytes: t.output.bytes });
  }
  // Fullest first: the tiles with the most data in them.
  tiles.sort((a, b) => b.bytes - a.bytes);
  return { runId: started.runId, tiles };
}

beforeAll(async () => {
  hub = await startTestHub();
  scratch = mkdtempSync(join(tmpdir(), 'geohub-render-test-'));
  // A one-band raster: band 1 of the RGB example.
  const band = join(scratch, 'band1.tif');
  execFileSync('gdal_translate', ['-q', '-b', '1', RGB, band]);
  const [rgb, one, dtm] = await Promise.all([finishedRun(RGB), finishedRun(band), finishedRun(AUTZEN)]);
  runs.rgb = rgb;
  runs.band = one;
  runs.dtm = dtm;
}, 240_000);

afterAll(async () => {
  try {
    for (const r of renderers) await r.close();
  } finally {
    await hub?.stop();
    if (scratch) execFileSync('rm', ['-rf', scratch]);
  }
});

describe('the page renderer draws a run tiles with GDAL, cached and bounded', () => {
  it('draws an RGB tile as it is, with the nodata mask as alpha', async () => {
    const { r } = renderer();
    const tile = runs.rgb.tiles[0]!;
    const png = await r.render(runs.rgb.runId, tile);
    expect([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
    const info = pngInfo(png, tempDir('geohub-png-'));
    expect(info.size).toEqual([256, 256]);
    expect(info.bands.map((b) => b.colorInterpretation)).toEqual(['Red', 'Green', 'Blue', 'Alpha']);
    // Imagery, not one flat colour: every colour band varies.
    for (const b of info.bands.slice(0, 3)) expect(b.stdDev).toBeGreaterThan(5);
    expect(r.look(runs.rgb.runId)?.style.kind).toBe('rgb');
  });

  it('draws one band through a colour ramp scaled by the run statistics', async () => {
    const { r } = renderer();
    const png = await r.render(runs.band.runId, runs.band.tiles[0]!);
    const look = r.look(runs.band.runId);
    expect(look?.style.kind).toBe('ramp');
    // The range comes from the run's own values (band 1 of RGB.byte.tif lies within 1..255).
    const { min, max } = look!.range!;
    expect(min).toBeGreaterThanOrEqual(1);
    expect(max).toBeLessThanOrEqual(255);
    expect(max - min).toBeGreaterThan(20);
    const info = pngInfo(png, tempDir('geohub-png-'));
    expect(info.bands).toHaveLength(4);
    for (const b of info.bands.slice(0, 3)) expect(b.stdDev).toBeGreaterThan(5);
  });

  it('draws a terrain model as a hillshade', async () => {
    const { r } = renderer();
    const png = await r.render(runs.dtm.runId, runs.dtm.tiles[0]!);
    expect(r.look(runs.dtm.runId)?.style.kind).toBe('hillshade');
    const info = pngInfo(png, tempDir('geohub-png-'));
    expect(info.size).toEqual([256, 256]);
    expect(info.bands[0]!.colorInterpretation).toBe('Gray');
    expect(info.bands[0]!.maximum - info.bands[0]!.minimum).toBeGreaterThan(50);
  });

  it('shares one render between concurrent requests and serves repeats from the disk cache', async () => {
    const { r, stats } = renderer();
    const tile = runs.rgb.tiles[1]!;
    const first = await Promise.all(Array.from({ length: 5 }, () => r.render(runs.rgb.runId, tile)));
    // One gdalinfo (the run's band layout) and one gdal_translate.
    expect(stats.calls).toBe(2);
    const again = await r.render(runs.rgb.runId, tile);
    expect(stats.calls).toBe(2);
    for (const png of [...first, again]) expect(png.equals(first[0]!)).toBe(true);
    expect(readdirSync(r.cache.dir).filter((f) => f.endsWith('.png'))).toHaveLength(1);
  });

  it('runs at most `concurrency` GDAL processes and refuses work past the queue limit', async () => {
    const { r, stats } = renderer({ concurrency: 2, queueLimit: 3 });
    const results = await Promise.allSettled(runs.rgb.tiles.map((t) => r.render(runs.rgb.runId, t)));
    const busy = results.filter((s) => s.status === 'rejected' && s.reason instanceof RenderBusyError);
    const drawn = results.filter((s) => s.status === 'fulfilled');
    expect(busy.length + drawn.length).toBe(results.length);
    expect(busy.length).toBeGreaterThan(0);
    expect(drawn.length).toBeGreaterThanOrEqual(3);
    expect(stats.peak).toBeLessThanOrEqual(2);
  });

  it('keeps the cache under its size cap, deleting what it evicts', async () => {
    const maxBytes = 40_000;
    const { r } = renderer({ maxBytes });
    for (const t of runs.rgb.tiles.slice(0, 10)) await r.render(runs.rgb.runId, t);
    const files = readdirSync(r.cache.dir).filter((f) => f.endsWith('.png'));
    const onDisk = files.reduce((sum, f) => sum + statSync(join(r.cache.dir, f)).size, 0);
    expect(files.length).toBeGreaterThan(0);
    expect(files.length).toBeLessThan(10);
    expect(onDisk).toBeLessThanOrEqual(maxBytes);
    expect(r.cache.bytes).toBe(onDisk);
    // Nothing else is left there: no downloaded tile, no side file.
    expect(readdirSync(r.cache.dir).filter((f) => !f.endsWith('.png'))).toEqual([]);
  });

  it('refuses a sub-tile without a marker and a run that does not exist', async () => {
    const { r, stats } = renderer();
    const outside = { z: runs.rgb.tiles[0]!.z, x: 0, y: 0 };
    await expect(r.render(runs.rgb.runId, outside)).rejects.toBeInstanceOf(TileNotRenderableError);
    await expect(r.render('r-00000000000000000000', outside)).rejects.toBeInstanceOf(TileNotRenderableError);
    expect(stats.calls).toBe(0);
  });

  it('close() kills the GDAL processes it runs, drops queued work and deletes its directory', async () => {
    const pids: number[] = [];
    // A render stuck in its tool: the tool is any process run through lib/process.
    const stuck: GdalTool = async (_command, opts) => {
      await runProcess('sleep', ['60'], { ...opts, graceMs: 500, onSpawn: (pid) => pids.push(pid) });
      return '';
    };
    const { r } = renderer({ gdal: stuck, concurrency: 2 });
    const pending = runs.rgb.tiles.slice(0, 5).map((t) => r.render(runs.rgb.runId, t));
    const settled = Promise.allSettled(pending);
    // The first render reads the run's band layout; the second waits for that same reading.
    const deadline = Date.now() + 30_000;
    while (pids.length < 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pids.filter(isAlive)).toHaveLength(1);
    const dir = r.cache.dir;
    await r.close();
    const outcomes = await settled;
    expect(outcomes.every((o) => o.status === 'rejected')).toBe(true);
    expect(pids.filter(isAlive)).toEqual([]);
    expect(existsSync(dir)).toBe(false);
  });
  it('while the render queue is full, the API and the page still answer', async () => {
    const pids: number[] = [];
    // Renders that never finish on their own: the queue stays full for as long as the test needs.
    const stuck: GdalTool = async (_command, opts) => {
      await runProcess('sleep', ['60'], { ...opts, graceMs: 500, onSpawn: (pid) => pids.push(pid) });
      return '';
    };
    const page = createPage(hub, { gdal: stuck, concurrency: 2, queueLimit: 3 });
    const api = await startApiServer(hubRunControl(hub), 0, page.handle);
    try {
      const renders = runs.rgb.tiles
        .slice(0, 10)
        .map((t) => fetch(`${api.url}/api/runs/${runs.rgb.runId}/render/${t.z}/${t.x}/${t.y}.png`));
      const settled = renders.map(() => false);
      for (const [i, r] of renders.entries())
        void r.then(
          () => (settled[i] = true),
          () => {},
        );
      // Past the limit, renders are refused as busy: the queue is full.
      expect(
        await waitUntil(async () => settled.filter(Boolean).length >= 5 && pids.length > 0, 30_000, 50),
      ).toBe(true);
      const refused = await Promise.all(renders.filter((_, i) => settled[i]));
      expect(refused.map((r) => r.status)).toEqual([503, 503, 503, 503, 503]);
      // The API and the page's assets answer while five renders are still held in the queue.
      const list = await fetch(`${api.url}/api/runs`);
      expect(list.status).toBe(200);
      expect(((await list.json()) as { runId: string }[]).map((r) => r.runId)).toContain(runs.rgb.runId);
      expect((await fetch(`${api.url}/api/runs/${runs.rgb.runId}`)).status).toBe(200);
      expect((await fetch(`${api.url}/`)).status).toBe(200);
      expect(settled.filter((done) => !done)).toHaveLength(5);
      expect(pids.filter(isAlive).length).toBeGreaterThan(0);
    } finally {
      await page.close(); // kills the stuck renders
      await api.close();
    }
    expect(pids.filter(isAlive)).toEqual([]);
  });
});
