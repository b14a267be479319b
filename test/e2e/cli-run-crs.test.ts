import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TileRange } from '../../lib/tiling/tile-range.js';
import { startCli } from '../support/cli.js';
import { crsOracle, type OracleCase } from '../support/crs-oracle.js';
import { findFiles } from '../support/find-files.js';
import { groundGrid, type LasOptions, lasBytes } from '../support/las-bytes.js';
import { processMark } from '../support/marked-processes.js';
import { tempDir } from '../support/temp-dir.js';

/*
 * `geohub run` end to end on inputs as the world makes them: each raster is made by GDAL
 * (test/support/crs-oracle.py), which also answers its XYZ cover; the run's tiles must be
 * exactly that cover. Point clouds of LAS 1.1, 1.3 and 1.4 (waveform formats) must run through.
 */

interface Summary {
  status: string;
  tiles: { total: number; done: number; failed: number };
}

const UTM_10N_WKT =
  'PROJCS["WGS 84 / UTM zone 10N",GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["latitude_of_origin",0],PARAMETER["central_meridian",-123],PARAMETER["scale_factor",0.9996],PARAMETER["false_easting",500000],PARAMETER["false_northing",0],UNIT["metre",1]]';

const tilesOf = (ranges: readonly TileRange[]) =>
  ranges.flatMap((r) =>
    Array.from({ length: r.maxX - r.minX + 1 }, (_, i) =>
      Array.from({ length: r.maxY - r.minY + 1 }, (_, j) => `${r.z}/${r.minX + i}/${r.minY + j}.tif`),
    ).flat(),
  );

/** The CLI with `args`; a test that times out interrupts it as Ctrl-C would, so nothing is left running. */
async function cli(args: string[], signal: AbortSignal) {
  const mark = processMark();
  const { child, done } = startCli(args, mark.env);
  const interrupt = () => child.kill('SIGINT');
  signal.addEventListener('abort', interrupt, { once: true });
  const r = await done.finally(() => signal.removeEventListener('abort', interrupt));
  return { r, mark };
}

/** `geohub run`, which must succeed. */
async function run(file: string, signal: AbortSignal, zoom?: number) {
  const out = tempDir('geohub-out-');
  const args = ['run', file, '--out', out, '--json', ...(zoom === undefined ? [] : ['--zoom', String(zoom)])];
  const { r, mark } = await cli(args, signal);
  expect(r.code, r.stderr).toBe(0);
  const summary = JSON.parse(r.stdout) as Summary;
  expect(summary).toMatchObject({ status: 'SUCCEEDED', tiles: { failed: 0 } });
  expect(summary.tiles.done).toBe(summary.tiles.total);
  const tiles = findFiles(out, (n) => /^\d+\.tif$/.test(n)).map((p) => p.slice(out.length + 1));
  // Nothing this run started is still running: stand-ins, workers, tools.
  expect(mark.live()).toEqual([]);
  return { out, tiles: tiles.sort(), summary };
}

describe('geohub run on rasters in hard CRSs: the cover is GDAL’s', () => {
  const cases: OracleCase[] = [
    {
      id: 'goes-full-disk',
      srs: '+proj=geos +h=35786023 +lon_0=-75 +sweep=x +ellps=GRS80',
      gt: [-5434894.885, 32064.2, 0, 5434894.885, 0, -32064.2],
      size: [339, 339],
    },
    {
      // GDAL stores this CRS as an ESRI PE string (ESRI WKT, no PROJ extension) in the GeoTIFF.
      id: 'himawari-esri-wkt',
      srs: '+proj=geos +h=35785831 +lon_0=140.7 +ellps=WGS84',
      gt: [-500000, 5000, 0, 500000, 0, -5000],
      size: [200, 200],
    },
    { id: 'global-4326', srs: 'EPSG:4326', gt: [-180, 1, 0, 90, 0, -1], size: [360, 180] },
    { id: 'fiji-antimeridian', srs: 'EPSG:32760', lonlat: [179.5, -17, 3] },
  ];

  for (const c of cases)
    it(c.id, async ({ signal }) => {
      const dir = tempDir('geohub-crs-in-');
      const answer = (await crsOracle(dir, [c], signal)).get(c.id)!;
      if ('error' in answer) throw new Error(`GDAL could not make ${c.id}: ${answer.error}`);
      const { tiles } = await run(answer.file, signal, answer.zoom);
      expect(tiles).toEqual(tilesOf(answer.ranges).sort());
      if (c.id === 'fiji-antimeridian') {
        const columns = new Set(tiles.map((t) => Number(t.split('/')[1])));
        expect(columns).toContain(0);
        expect(columns).toContain(2 ** answer.zoom - 1);
      }
    });
});

describe('geohub run on a CRS geohub cannot reproject', () => {
  it('exits 1 with one stderr line naming the user’s file, the CRS and why, not the object key', async ({
    signal,
  }) => {
    // Madagascar's Laborde grid: GDAL writes its EPSG code in the GeoKeys; proj4 has no labrd.
    const dir = tempDir('geohub-crs-in-');
    const file = join(dir, 'tananarive-laborde.tif');
    execFileSync('gdal_create', [
      ...['-of', 'GTiff', '-outsize', '8', '8', '-bands', '1', '-a_srs', 'EPSG:8441'],
      ...['-a_ullr', '500000', '800000', '500800', '799200', file],
    ]);
    const { r, mark } = await cli(['run', file, '--out', tempDir('geohub-out-'), '--workers', '1'], signal);
    expect(r.code, r.stderr).toBe(1);
    // Besides the progress lines a non-terminal gets (uploading: …, failed: 0/0 sub-tiles …), one line.
    const lines = r.stderr.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('geohub'))).toEqual([
      `geohub run: the run failed: ${file}: EPSG:8441 (Tananarive / Laborde Grid) cannot be reprojected: ` +
        'its projection method labrd is not one proj4 implements',
    ]);
    expect(lines.filter((l) => l.includes(file))).toHaveLength(1);
    expect(r.stderr).not.toContain('s3://');
    expect(r.stdout).not.toContain('s3://');
    expect(mark.live()).toEqual([]);
  });
});

describe('geohub run on LAS 1.1, 1.3 and 1.4 with waveform packets', () => {
  const points = groundGrid(500000, 4100000, 40, 5);
  const files: [string, LasOptions][] = [
    ['las-1.1-format-1', { minor: 1, format: 1, points, epsg: 32610 }],
    ['las-1.3-format-4-waveform', { minor: 3, format: 4, points, epsg: 32610 }],
    ['las-1.4-format-9-waveform-wkt', { minor: 4, format: 9, points, wkt: UTM_10N_WKT }],
  ];

  for (const [name, options] of files)
    it(name, async ({ signal }) => {
      const dir = tempDir('geohub-crs-in-');
      const file = join(dir, `${name}.las`);
      writeFileSync(file, lasBytes(options));
      const { tiles, out } = await run(file, signal);
      expect(tiles.length).toBeGreaterThan(0);
      // The DTM holds the ground's heights: 100 m to 105.85 m on this slope.
      const stats = execFileSync('gdalinfo', ['-stats', '-json', join(out, 'mosaic.vrt')], {
        encoding: 'utf8',
      });
      const band = JSON.parse(stats).bands[0] as { minimum: number; maximum: number };
      expect(band.minimum).toBeGreaterThanOrEqual(99.9);
      expect(band.maximum).toBeLessThanOrEqual(105.9);
    });
});
