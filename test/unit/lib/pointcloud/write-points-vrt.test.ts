import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pointsVrtXml, writePointsVrt } from '../../../../lib/pointcloud/write-points-vrt.js';
import { tempDir } from '../../../support/temp-dir.js';

describe('writePointsVrt', () => {
  it('writes x,y,z lines at full precision and a VRT that reprojects them to EPSG:3857', async () => {
    const dir = tempDir('geohub-vrt-');
    const written = await writePointsVrt(
      dir,
      [
        [636001.76, 848935.2000000001, 406.26],
        [0.1 + 0.2, -5, 1e-7],
      ],
      'EPSG:2992',
    );
    expect(written).toEqual({
      csv: join(dir, 'points.csv'),
      vrt: join(dir, 'points.vrt'),
      layer: 'points',
      count: 2,
    });
    expect(readFileSync(written.csv, 'utf8')).toBe(
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
    const written = await writePointsVrt(dir, [], 'EPSG:32610');
    expect(written.count).toBe(0);
    expect(readFileSync(written.csv, 'utf8')).toBe('x,y,z\n');
  });

  it('escapes a WKT for XML', () => {
    expect(pointsVrtXml('points.csv', 'PROJCS["A & <B>"]')).toContain(
      '<LayerSRS>PROJCS[&quot;A &amp; &lt;B&gt;&quot;]</LayerSRS>',
    );
  });
});
