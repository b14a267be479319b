import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { pointsVrtXml, writePointsVrt } from '../../../../lib/pointcloud/write-points-vrt.js';
import { tempDir } from '../../../support/temp-dir.js';

/** The points GDAL reads through the VRT, as gdal_grid would: [x, y, z] in EPSG:3857. */
function readThroughGdal(vrt: string): number[][] {
  const json = JSON.parse(
    execFileSync('ogr2ogr', ['-f', 'GeoJSON', '/vsistdout/', vrt, 'points'], { encoding: 'utf8' }),
  );
  return json.features.map((f: { geometry: { coordinates: number[] } }) => f.geometry.coordinates);
}

describe('writePointsVrt', () => {
  it('writes x,y,z lines at full precision and a VRT that reprojects them to EPSG:3857', async () => {
    const dir = tempDir('geohub-vrt-');
    const written = await writePointsVrt(dir, [
      {
        points: [
          [636001.76, 848935.2000000001, 406.26],
          [0.1 + 0.2, -5, 1e-7],
        ],
        srs: 'EPSG:2992',
      },
    ]);
    expect(written).toEqual({
      csv: [join(dir, 'points.csv')],
      vrt: join(dir, 'points.vrt'),
      layer: 'points',
      count: 2,
    });
    expect(readFileSync(written.csv[0]!, 'utf8')).toBe(
      'x,y,z\n636001.76,848935.2000000001,406.26\n0.30000000000000004,-5,1e-7\n',
    );
    const vrt = readFileSync(written.vrt, 'utf8');
    expect(vrt).toContain('<OGRVRTWarpedLayer>');
    expect(vrt).toContain('<SrcDataSource relativeToVRT="1">points.csv</SrcDataSource>');
    expect(vrt).toContain('<LayerSRS>EPSG:2992</LayerSRS>');
    expect(vrt).toContain('<TargetSRS>EPSG:3857</TargetSRS>');
    expect(vrt).toContain('<GeometryField encoding="PointFromColumns" x="x" y="y" z="z"/>');
  });

  it('writes a header-only CSV for no points', async () => {
    const dir = tempDir('geohub-vrt-');
    const written = await writePointsVrt(dir, [{ points: [], srs: 'EPSG:32610' }]);
    expect(written.count).toBe(0);
    expect(readFileSync(written.csv[0]!, 'utf8')).toBe('x,y,z\n');
  });

  // The bug it catches: a collection across two UTM zones whose second zone's points are left out
  // of the layer gdal_grid reads, or placed with the first zone's CRS (a 6° shift).
  it('reads points in two CRSs as one EPSG:3857 layer, each placed by its own CRS (GDAL reads it)', async () => {
    const dir = tempDir('geohub-vrt-');
    const west: [number, number, number] = [700000, 4500000, 10];
    const east: [number, number, number] = [300000, 4500000, 20];
    const written = await writePointsVrt(dir, [
      { points: [west], srs: 'EPSG:32618' },
      { points: [east], srs: 'EPSG:32619' },
    ]);
    expect(written.csv).toEqual([join(dir, 'points.csv'), join(dir, 'points-1.csv')]);
    expect(written.count).toBe(2);
    const utm = (zone: number) => `+proj=utm +zone=${zone} +datum=WGS84 +units=m +no_defs`;
    const expected = [
      [...proj4(utm(18), 'EPSG:3857', west.slice(0, 2)), 10],
      [...proj4(utm(19), 'EPSG:3857', east.slice(0, 2)), 20],
    ];
    const read = readThroughGdal(written.vrt);
    expect(read).toHaveLength(2);
    read.forEach((p, i) => {
      expect(Math.hypot(p[0]! - expected[i]![0]!, p[1]! - expected[i]![1]!)).toBeLessThan(0.01);
      expect(p[2]).toBe(expected[i]![2]);
    });
  });

  it('escapes a WKT for XML', () => {
    expect(pointsVrtXml([{ csv: 'points.csv', srs: 'PROJCS["A & <B>"]' }])).toContain(
      '<LayerSRS>PROJCS[&quot;A &amp; &lt;B&gt;&quot;]</LayerSRS>',
    );
  });
});
