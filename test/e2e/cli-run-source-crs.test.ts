import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCli } from '../support/cli.js';
import { crsOracle } from '../support/crs-oracle.js';
import { findFiles } from '../support/find-files.js';
import { groundGrid, lasBytes } from '../support/las-bytes.js';
import { processMark } from '../support/marked-processes.js';
import { tempDir } from '../support/temp-dir.js';

/*
 * `geohub run --s-srs` on files with no CRS: the override places them as `gdalwarp -s_srs` and
 * PDAL's `override_srs` do, in the split's plan and in the workers' tools alike. Without it,
 * both runs fail naming the missing CRS.
 */

const PYTHON = '/usr/bin/python3';

async function cli(args: string[], signal: AbortSignal) {
  const mark = processMark();
  const { child, done } = startCli(args, mark.env);
  const interrupt = () => child.kill('SIGINT');
  signal.addEventListener('abort', interrupt, { once: true });
  const r = await done.finally(() => signal.removeEventListener('abort', interrupt));
  expect(mark.live()).toEqual([]);
  return r;
}

const tilesIn = (out: string) =>
  findFiles(out, (n) => /^\d+\.tif$/.test(n))
    .map((p) => p.slice(out.length + 1))
    .sort();

/** GDAL's EPSG:3857 box of the valid pixels of a mosaic (min x, min y, max x, max y), and its pixel size. */
function validBox(vrt: string): number[] {
  const script = [
    'import sys, json',
    'from osgeo import gdal',
    'import numpy as np',
    'ds = gdal.Open(sys.argv[1]); a = ds.GetRasterBand(1).ReadAsArray(); gt = ds.GetGeoTransform()',
    'nd = ds.GetRasterBand(1).GetNoDataValue(); rows, cols = np.nonzero(a != nd)',
    'print(json.dumps([gt[0] + cols.min() * gt[1], gt[3] + (rows.max() + 1) * gt[5], gt[0] + (cols.max() + 1) * gt[1], gt[3] + rows.min() * gt[5], gt[1]]))',
  ].join('\n');
  return JSON.parse(execFileSync(PYTHON, ['-c', script, vrt], { encoding: 'utf8' })) as number[];
}

/** Where GDAL puts a point of `srs` in EPSG:3857. */
function gdal3857(srs: string, x: number, y: number): [number, number] {
  const out = execFileSync('gdaltransform', ['-s_srs', srs, '-t_srs', 'EPSG:3857', '-output_xy'], {
    input: `${x} ${y}\n`,
    encoding: 'utf8',
  });
  const [ex, ey] = out.trim().split(/\s+/).map(Number);
  return [ex!, ey!];
}

describe('geohub run --s-srs on sources with no CRS', () => {
  it('a LAS file with no CRS: refused without --s-srs; with EPSG:28992 its DTM lands where GDAL puts its points', async ({
    signal,
  }) => {
    const dir = tempDir('geohub-s-srs-');
    const file = join(dir, 'no-crs.las');
    // 200 m × 200 m of ground in the Dutch national grid (RD New), no GeoKeys, no WKT.
    const [x0, y0, side, spacing] = [155000, 463000, 40, 5];
    writeFileSync(file, lasBytes({ minor: 2, format: 1, points: groundGrid(x0, y0, side, spacing) }));

    const refused = await cli(['run', file, '--out', tempDir('geohub-out-'), '--workers', '1'], signal);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain('has no coordinate reference system');

    const out = tempDir('geohub-out-');
    const r = await cli(['run', file, '--out', out, '--json', '--s-srs', 'EPSG:28992'], signal);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'SUCCEEDED', tiles: { failed: 0 } });
    expect(tilesIn(out).length).toBeGreaterThan(0);
    // The points' corners as GDAL places them. The DTM's valid pixels reach the interpolation's
    // radius past the last point on every side: their centre is the points' centre, within a
    // pixel or two of quantisation (epsg-index's RD New put it 170 m away).
    const [minX, minY] = gdal3857('EPSG:28992', x0, y0);
    const [maxX, maxY] = gdal3857('EPSG:28992', x0 + (side - 1) * spacing, y0 + (side - 1) * spacing);
    const [bx0, by0, bx1, by1, pixel] = validBox(join(out, 'mosaic.vrt')) as [
      number,
      number,
      number,
      number,
      number,
    ];
    expect(Math.abs((bx0 + bx1) / 2 - (minX + maxX) / 2)).toBeLessThan(2 * pixel);
    expect(Math.abs((by0 + by1) / 2 - (minY + maxY) / 2)).toBeLessThan(2 * pixel);
    // and they cover every point.
    expect(bx0).toBeLessThan(minX);
    expect(by0).toBeLessThan(minY);
    expect(bx1).toBeGreaterThan(maxX);
    expect(by1).toBeGreaterThan(maxY);
  });

  it("a GeoTIFF with no CRS, with --s-srs EPSG:31370: GDAL's own cover of the same raster in Belgian Lambert 72", async ({
    signal,
  }) => {
    const dir = tempDir('geohub-s-srs-');
    // GDAL makes the raster in EPSG:31370 at 1 m pixels and answers its cover; a copy with the
    // same pixels and geotransform but no CRS is what geohub gets.
    const answer = (
      await crsOracle(dir, [{ id: 'bel', srs: 'EPSG:31370', lonlat: [4.45, 50.5, 0.0036] }], signal)
    ).get('bel')!;
    if ('error' in answer) throw new Error(`GDAL could not make it: ${answer.error}`);
    const bare = join(dir, 'no-crs.tif');
    const info = JSON.parse(execFileSync('gdalinfo', ['-json', answer.file], { encoding: 'utf8' })) as {
      size: [number, number];
      geoTransform: number[];
    };
    const [w, h] = info.size;
    const [ox, px, , oy, , py] = info.geoTransform as [number, number, number, number, number, number];
    execFileSync('gdal_create', [
      ...['-of', 'GTiff', '-outsize', String(w), String(h), '-bands', '1'],
      ...['-a_ullr', String(ox), String(oy), String(ox + w * px), String(oy + h * py), bare],
    ]);
    expect(execFileSync('gdalinfo', ['-json', bare], { encoding: 'utf8' })).not.toContain('Lambert');

    const out = tempDir('geohub-out-');
    const args = [
      'run',
      bare,
      '--out',
      out,
      '--json',
      '--zoom',
      String(answer.zoom),
      '--s-srs',
      'EPSG:31370',
    ];
    const r = await cli(args, signal);
    expect(r.code, r.stderr).toBe(0);
    const expected = answer.ranges.flatMap((g) =>
      Array.from({ length: g.maxX - g.minX + 1 }, (_, i) =>
        Array.from({ length: g.maxY - g.minY + 1 }, (_, j) => `${g.z}/${g.minX + i}/${g.minY + j}.tif`),
      ).flat(),
    );
    expect(tilesIn(out)).toEqual(expected.sort());
  });
});
