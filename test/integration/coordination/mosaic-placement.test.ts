import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRunOutputs } from '../../../local/cli/copy-outputs.js';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import { findFiles } from '../../support/find-files.js';
import { startTestHub } from '../../support/hub.js';
import { tempDir } from '../../support/temp-dir.js';

/*
 * The mosaic as a user opens it: read whole through GDAL and compared, pixel by pixel, with
 * GDAL's own warp of the source onto the mosaic's grid (test/support/mosaic-oracle.py). The run
 * uses the exact transformer, so a tile warped as part of its metatile is the very pixels of the
 * whole warp (docs/architecture.md#metatiles): any difference is a tile in the wrong place, a
 * missing tile or a wrong nodata.
 */

const ORACLE = new URL('../../support/mosaic-oracle.py', import.meta.url).pathname;
const PYTHON = '/usr/bin/python3'; // Debian's, with GDAL's bindings and numpy
const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
/** Half the width of EPSG:3857's square, in metres. */
const HALF_WORLD = 20037508.342789244;

interface Comparison {
  size: [number, number];
  bands: [number, number];
  nodata: (number | null)[];
  differing: number;
  first: unknown;
  dataPixels: number;
  nodataPixels: number;
  mosaicNodataPixels: number;
  edges: Record<'top' | 'bottom' | 'left' | 'right', boolean>;
  seamColumnsEqual: boolean;
  dataOnBothEdges: [boolean, boolean];
}

let hub: LocalHub;
beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(async () => {
  await hub?.stop();
});

/** Runs `file` to SUCCEEDED and lays its outputs out as geohub run --out does. */
async function runToOutputs(file: string, job: Record<string, unknown>) {
  const started = await hub.upload(file, { job });
  if (started.outcome !== 'started') throw new Error(`not started: ${JSON.stringify(started)}`);
  const execution = await hub.executions.wait(started.executionArn);
  expect({ status: execution.status, cause: execution.cause }).toEqual({
    status: 'SUCCEEDED',
    cause: undefined,
  });
  const out = tempDir('geohub-mosaic-');
  await copyRunOutputs(hub.store, started.runId, out);
  const tiles = findFiles(out, (n) => /^\d+\.tif$/.test(n)).map((p) =>
    p
      .split('/')
      .slice(-3)
      .map((s) => parseInt(s, 10)),
  );
  return { out, tiles: tiles as [number, number, number][] };
}

/** The mosaic's grid as the tiles' names say it must be (XYZ arithmetic, not lib/tiling). */
function expectGridOfTiles(mosaic: string, tiles: [number, number, number][]) {
  const info = JSON.parse(execFileSync('gdalinfo', ['-json', mosaic], { encoding: 'utf8' }));
  const z = tiles[0]![0];
  const xs = tiles.map((t) => t[1]);
  const ys = tiles.map((t) => t[2]);
  const tileMetres = (2 * HALF_WORLD) / 2 ** z;
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  expect(info.size).toEqual([(x1 - x0 + 1) * 256, (y1 - y0 + 1) * 256]);
  const [ox, px, , oy, , py] = info.geoTransform as number[];
  expect(ox).toBeCloseTo(-HALF_WORLD + x0 * tileMetres, 3);
  expect(oy).toBeCloseTo(HALF_WORLD - y0 * tileMetres, 3);
  expect(px).toBeCloseTo(tileMetres / 256, 6);
  expect(py).toBeCloseTo(-tileMetres / 256, 6);
  expect(info.coordinateSystem.wkt).toContain('"EPSG",3857');
}

function compare(mosaic: string, source: string, resampling: string): Comparison {
  return JSON.parse(
    execFileSync(PYTHON, [ORACLE, 'compare', mosaic, source, resampling], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    }),
  );
}

describe('the mosaic is GDAL’s warp of the source onto its grid: every tile in its place', () => {
  // Catches: a tile placed at the wrong offset in the mosaic VRT (e.g. x and y swapped in DstRect).
  it('a reprojected source (RGB.byte.tif, UTM 18N, 3 bands): every pixel, edge, seam and nodata as GDAL warps it', async () => {
    const { out, tiles } = await runToOutputs(RGB, {
      zoom: 10,
      resampling: 'bilinear',
      transformer: 'exact',
    });
    const mosaic = `${out}/mosaic.vrt`;
    expectGridOfTiles(mosaic, tiles);
    const c = compare(mosaic, RGB, 'bilinear');
    expect(c.bands).toEqual([3, 3]);
    expect(c.nodata).toEqual([0, 0, 0]);
    // Both kinds of pixel are there to compare: the source's footprint and the nodata around it.
    expect(c.dataPixels).toBeGreaterThan(c.size[0] * c.size[1] * 0.3);
    expect(c.nodataPixels).toBeGreaterThan(10_000);
    expect(c.edges).toEqual({ top: true, bottom: true, left: true, right: true });
    expect(c.seamColumnsEqual).toBe(true);
    expect({ differing: c.differing, first: c.first }).toEqual({ differing: 0, first: null });
    expect(c.mosaicNodataPixels).toBe(c.nodataPixels);
  });

  // Catches: the same misplacement across the antimeridian (tiles at both ends of the world's columns).
  it('a source across the antimeridian: tiles on both edges of the world, each where GDAL puts its pixels', async () => {
    const dir = tempDir('geohub-antimeridian-');
    const source = execFileSync(PYTHON, [ORACLE, 'make', dir], { encoding: 'utf8' }).trim();
    const { out, tiles } = await runToOutputs(source, { zoom: 7, resampling: 'near', transformer: 'exact' });
    const columns = new Set(tiles.map((t) => t[1]));
    expect(columns).toContain(0);
    expect(columns).toContain(127);
    const mosaic = `${out}/mosaic.vrt`;
    expectGridOfTiles(mosaic, tiles);
    const c = compare(mosaic, source, 'near');
    expect(c.bands).toEqual([1, 1]);
    expect(c.dataOnBothEdges).toEqual([true, true]);
    expect(c.edges).toEqual({ top: true, bottom: true, left: true, right: true });
    expect(c.seamColumnsEqual).toBe(true);
    expect({ differing: c.differing, first: c.first }).toEqual({ differing: 0, first: null });
    expect(c.mosaicNodataPixels).toBe(c.nodataPixels);
  });
});
