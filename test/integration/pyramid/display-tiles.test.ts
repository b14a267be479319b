import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TileType } from 'pmtiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLORMAPS } from '../../../lib/operations/colormaps.js';
import { copyRunOutputs } from '../../../local/cli/copy-outputs.js';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import { expectSucceeded } from '../../support/expect-succeeded.js';
import { startTestHub } from '../../support/hub.js';
import { archiveMismatches, openPmtiles } from '../../support/pmtiles-file.js';
import { readTilePixels, type TilePixels } from '../../support/raster-pixels.js';
import { tempDir } from '../../support/temp-dir.js';
import { tileTree } from '../../support/tile-tree.js';

const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const FLOAT = new URL('../../fixtures/raster/float_raster_with_nodata.tif', import.meta.url).pathname;
const AUTZEN = new URL('../../../examples/pointcloud/autzen_trim.laz', import.meta.url).pathname;
let hub: LocalHub;
beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(async () => {
  await hub?.stop();
});

/** Uploads `file` with `job`, waits for its run, and copies its outputs as `geohub run --out` does. */
async function runJob(file: string, job: Record<string, unknown>) {
  const started = await hub.upload(file, { job });
  if (started.outcome !== 'started') throw new Error(`not started: ${JSON.stringify(started)}`);
  const execution = await hub.executions.wait(started.executionArn);
  const run = await hub.ledger.getRun(started.runId);
  const out = tempDir('geohub-display-');
  if (run?.status === 'SUCCEEDED') await copyRunOutputs(hub.store, started.runId, out);
  return { execution, run, out };
}

/** A display tile's pixels, decoded by GDAL into a GeoTIFF and read by geotiff.js. */
async function pixels(path: string, dir: string): Promise<TilePixels> {
  const tif = join(dir, `${path.replaceAll('/', '_')}.tif`);
  // A display tile has no georeferencing: any will do for reading its pixels.
  const placed = ['-a_srs', 'EPSG:3857', '-a_ullr', '0', '256', '256', '0'];
  execFileSync('gdal_translate', ['-q', '-of', 'GTiff', ...placed, path, tif], {
    env: { ...process.env, GDAL_PAM_ENABLED: 'NO' },
  });
  return readTilePixels(tif);
}

describe('display tiles: PNG and WebP for a web map, and a PMTiles archive of the pyramid', () => {
  it('makes PNG tiles of every level, each lower pixel the average of its opaque children, all in a PMTiles archive', async () => {
    const { execution, run, out } = await runJob(RGB, { zoom: '6-9', format: 'png' });
    expect(run?.reason).toBeUndefined();
    expectSucceeded(execution);
    const names = tileTree(out, 'png');
    expect(names).toHaveLength(run!.counters.total);
    const peer = tempDir('geohub-display-gdal2tiles-');
    execFileSync('gdal2tiles.py', ['--xyz', '-q', '-z', '6-9', '--processes=1', RGB, peer]);
    expect(names).toEqual(tileTree(peer, 'png'));

    const scratch = tempDir('geohub-display-pixels-');
    let compared = 0;
    for (const name of names.filter((n) => !n.startsWith('9/'))) {
      const [z, x, y] = name.split('/').map(Number) as [number, number, number];
      const parent = await pixels(join(out, `${name}.png`), scratch);
      expect(parent.bands).toHaveLength(4);
      const children = await Promise.all(
        [0, 1, 2, 3].map((i) => {
          const path = join(out, String(z + 1), String(2 * x + (i % 2)), `${2 * y + Math.floor(i / 2)}.png`);
          return existsSync(path) ? pixels(path, scratch) : undefined;
        }),
      );
      let worst = 0;
      for (let row = 0; row < 256; row++)
        for (let col = 0; col < 256; col++) {
          const child = children[Math.floor((2 * row) / 256) * 2 + Math.floor((2 * col) / 256)];
          const at = (dx: number, dy: number) => (((2 * row) % 256) + dy) * 256 + ((2 * col) % 256) + dx;
          const quad = [at(0, 0), at(1, 0), at(0, 1), at(1, 1)];
          const alpha = quad.map((p) => (child ? child.bands[3]![p]! : 0));
          const here = row * 256 + col;
          if (alpha.every((a) => a === 0)) {
            expect(parent.bands[3]![here]).toBe(0);
            continue;
          }
          if (!alpha.every((a) => a === 255)) continue;
          expect(parent.bands[3]![here]).toBe(255);
          for (let band = 0; band < 3; band++) {
            const mean = quad.reduce((s, p) => s + child!.bands[band]![p]!, 0) / 4;
            worst = Math.max(worst, Math.abs(parent.bands[band]![here]! - mean));
          }
          compared++;
        }
      expect(worst, name).toBeLessThanOrEqual(0.5 + 1e-9);
    }
    expect(compared).toBeGreaterThan(1000);

    // One archive of the whole pyramid: every tile readable with the pmtiles decoder, equal to its file.
    const archive = openPmtiles(join(out, 'tiles.pmtiles'));
    expect(await archive.getHeader()).toMatchObject({
      minZoom: 6,
      maxZoom: 9,
      tileType: TileType.Png,
      numAddressedTiles: names.length,
    });
    expect(await archiveMismatches(archive, out, names, 'png')).toEqual([]);
    // The mosaic opens as RGBA over the tiles.
    const info = JSON.parse(
      execFileSync('gdalinfo', ['-json', join(out, 'mosaic.vrt')], { encoding: 'utf8' }),
    );
    expect(info.bands.map((b: { colorInterpretation: string }) => b.colorInterpretation)).toEqual([
      'Red',
      'Green',
      'Blue',
      'Alpha',
    ]);
  }, 240_000);

  it('makes WebP tiles and a WebP archive; without a zoom, the whole pyramid down to where gdal2tiles.py stops', async () => {
    const { execution, run, out } = await runJob(RGB, { format: 'webp' });
    expectSucceeded(execution);
    const names = tileTree(out, 'webp');
    expect(names).toHaveLength(run!.counters.total);
    // gdal2tiles.py's default levels: its lowest is where the footprint fits one tile, as ours.
    const peer = tempDir('geohub-display-gdal2tiles-');
    execFileSync('gdal2tiles.py', ['--xyz', '-q', '--processes=1', RGB, peer]);
    const peerZooms = [...new Set(tileTree(peer, 'png').map((n) => Number(n.split('/')[0])))].sort(
      (a, b) => a - b,
    );
    const { minZoom, zoom } = run!.params as { minZoom: number; zoom: number };
    expect(minZoom).toBe(peerZooms[0]);
    // Its deepest is the native zoom, rounded as geohub's one-level default is (docs/cli.md).
    expect(zoom).toBeGreaterThan(minZoom);
    const sameLevels = tempDir('geohub-display-gdal2tiles-levels-');
    execFileSync('gdal2tiles.py', [
      '--xyz',
      '-q',
      '-z',
      `${minZoom}-${zoom}`,
      '--processes=1',
      RGB,
      sameLevels,
    ]);
    expect(names).toEqual(tileTree(sameLevels, 'png'));
    for (const name of names) {
      const bytes = readFileSync(join(out, `${name}.webp`));
      expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
      expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
    }
    const archive = openPmtiles(join(out, 'tiles.pmtiles'));
    expect((await archive.getHeader()).tileType).toBe(TileType.Webp);
    expect(await archiveMismatches(archive, out, names, 'webp')).toEqual([]);
  }, 240_000);

  it("colours a DTM along its ramp: each pixel the ramp at its elevation, rescaled from the cloud's z range", async () => {
    const shown = await runJob(AUTZEN, { format: 'png', colormap: 'terrain' });
    expectSucceeded(shown.execution);
    const [low, high] = shown.run!.params.rescale as [number, number];
    expect(low).toBeLessThan(high);
    const data = await runJob(AUTZEN, { zoom: shown.run!.params.zoom });
    expectSucceeded(data.execution);
    // Display tiles without a zoom: a pyramid; its base level is the data run's one level.
    const base = `${shown.run!.params.zoom}/`;
    const names = tileTree(shown.out, 'png').filter((n) => n.startsWith(base));
    expect(shown.run!.params.minZoom).toBeLessThan(Number(shown.run!.params.zoom));
    expect(names).toEqual(tileTree(data.out, 'tif'));
    const scratch = tempDir('geohub-display-dtm-');
    const stops = COLORMAPS.terrain;
    const ramp = (t: number, channel: number) => {
      const i = Math.max(
        1,
        stops.findIndex((s) => s[0] >= t),
      );
      const [p0, p1] = [stops[i - 1]!, stops[i]!];
      return p0[channel]! + ((t - p0[0]) / (p1[0] - p0[0])) * (p1[channel]! - p0[channel]!);
    };
    let compared = 0;
    for (const name of names) {
      const png = await pixels(join(shown.out, `${name}.png`), scratch);
      const dtm = await readTilePixels(join(data.out, `${name}.tif`));
      for (let p = 0; p < 256 * 256; p += 7) {
        const v = dtm.bands[0]![p]!;
        if (v === dtm.nodata) {
          expect(png.bands[3]![p]).toBe(0);
          continue;
        }
        // The engine scales to 0-255 first (then rounds once at the end): so does this.
        const t = Math.min(1, Math.max(0, (v - low) / (high - low)));
        for (let c = 0; c < 3; c++)
          expect(Math.abs(png.bands[c]![p]! - ramp(t, c + 1))).toBeLessThanOrEqual(0.5 + 1e-6);
        expect(png.bands[3]![p]).toBe(255);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(1000);
  }, 240_000);

  it('refuses display tiles of Float32 data that gives no range, naming the option, before any tile', async () => {
    const { execution, run } = await runJob(FLOAT, { format: 'png' });
    expect(execution.status).toBe('FAILED');
    expect(run?.reason ?? execution.cause).toMatch(
      /is Float32, and its header records no value range: png tiles need "rescale": \[min, max\]/,
    );
  }, 120_000);
});
