import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { extractTilePoints } from '../../../../lib/pointcloud/extract-tile-points.js';
import { loadLazPerf } from '../../../../lib/pointcloud/load-laz-perf.js';
import { TruncatedSourceError, UnrecognisedFormatError } from '../../../../lib/source/errors.js';
import { UnsupportedCrsError } from '../../../../lib/tiling/errors.js';
import { gridPoints, syntheticLas } from '../../../support/synthetic-las.js';
import { fileTempDir } from '../../../support/temp-dir.js';

const AUTZEN = new URL('../../../../examples/pointcloud/autzen_trim.laz', import.meta.url).pathname;
/** autzen_trim.laz cut by PDAL into four quadrant files (test/fixtures/README.md). */
const AUTZEN_QUADRANTS = ['sw', 'se', 'nw', 'ne'].map(
  (q) => new URL(`../../../fixtures/pointcloud/autzen-quadrants/${q}.laz`, import.meta.url).pathname,
);
const SIMPLE_LAS = new URL('../../../fixtures/pointcloud/simple.las', import.meta.url).pathname;
const dir = fileTempDir('geohub-extract-');
let files = 0;
const file = (bytes: Uint8Array) => {
  files += 1;
  const path = join(dir, `source-${files}`); // named like the worker's copy: no extension
  writeFileSync(path, bytes);
  return path;
};
const outDir = () => mkdtempSync(join(dir, 'out-'));
type Tile = { z: number; x: number; y: number };
const extract = (sources: string[], tile: Tile, mode: 'points' | 'probe' = 'points', radius = 10) =>
  extractTilePoints({ mode, sources, tile, radius, outDir: outDir() });

/** The XYZ tile holding lon/lat at zoom z: the slippy-map formulas. */
function tileAt(lon: number, lat: number, z: number) {
  const n = 2 ** z;
  const rad = (lat * Math.PI) / 180;
  return {
    z,
    x: Math.floor(((lon + 180) / 360) * n),
    y: Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n),
  };
}
const [lon, lat] = proj4('+proj=utm +zone=10 +datum=WGS84 +units=m +no_defs', 'EPSG:4326').forward([
  500_000, 4_877_000,
]);
const SYNTHETIC_TILE = tileAt(lon!, lat!, 17);

describe('extractTilePoints on a plain LAS file', () => {
  it('keeps the ground class, averaged per pixel, and writes it for gdal_grid in the source CRS', async () => {
    const source = file(
      syntheticLas(
        gridPoints((i) => (i % 2 === 0 ? 2 : 6)),
        { epsg: 32610 },
      ),
    );
    const out = outDir();
    const summary = await extractTilePoints({
      mode: 'points',
      sources: [source],
      tile: SYNTHETIC_TILE,
      radius: 10,
      outDir: out,
    });
    expect(summary).toMatchObject({
      inputs: [{ source, format: 'las', srs: 'EPSG:32610' }],
      selection: 'ground',
      complete: true,
    });
    expect(summary.pointsRead).toBe(101 * 101);
    expect(summary.pointsInBox).toBe(summary.classes['2']! + summary.classes['6']!);
    expect(summary.points?.count).toBeGreaterThan(0);
    expect(summary.points!.count).toBeLessThanOrEqual(summary.classes['2']!);

    const lines = readFileSync(summary.points!.csv[0]!, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('x,y,z');
    expect(lines).toHaveLength(summary.points!.count + 1);
    for (const line of lines.slice(1)) {
      const [x, y, z] = line.split(',').map(Number);
      const [minX, minY, maxX, maxY] = summary.inputs[0]!.sourceBox;
      expect(x).toBeGreaterThanOrEqual(minX);
      expect(y).toBeLessThanOrEqual(maxY);
      expect(x).toBeLessThanOrEqual(maxX);
      expect(y).toBeGreaterThanOrEqual(minY);
      // Ground only: on the slope (100 … 102 m), never the 20 m higher canopy.
      expect(z).toBeGreaterThanOrEqual(100);
      expect(z).toBeLessThanOrEqual(102);
    }
    expect(readFileSync(summary.points!.vrt, 'utf8')).toContain('<LayerSRS>EPSG:32610</LayerSRS>');
  });

  it('uses every point of an unclassified cloud (classes 0 and 1 only)', async () => {
    const source = file(
      syntheticLas(
        gridPoints((i, j) => (i + j) % 2),
        { epsg: 32610 },
      ),
    );
    const summary = await extractTilePoints({
      mode: 'points',
      sources: [source],
      tile: SYNTHETIC_TILE,
      radius: 10,
      outDir: outDir(),
    });
    expect(summary.selection).toBe('unclassified');
    expect(summary.points?.count).toBeGreaterThan(0);
  });

  it('selects nothing where the cloud is classified but has no ground', async () => {
    const source = file(
      syntheticLas(
        gridPoints((i) => (i % 2 === 0 ? 1 : 6)),
        { epsg: 32610 },
      ),
    );
    const summary = await extractTilePoints({
      mode: 'points',
      sources: [source],
      tile: SYNTHETIC_TILE,
      radius: 10,
      outDir: outDir(),
    });
    expect(summary.selection).toBe('none');
    expect(summary.points).toBeUndefined();
  });

  it('probes without writing and stops at the first ground point', async () => {
    const source = file(
      syntheticLas(
        gridPoints(() => 2),
        { epsg: 32610 },
      ),
    );
    const out = outDir();
    const summary = await extractTilePoints({
      mode: 'probe',
      sources: [source],
      tile: SYNTHETIC_TILE,
      radius: 10,
      outDir: out,
    });
    expect(summary).toMatchObject({
      selection: 'ground',
      complete: false,
      pointsInBox: 1,
      classes: { '2': 1 },
    });
    expect(summary.points).toBeUndefined();
  });

  it('reports a tile away from the cloud as having nothing, without reading a point', async () => {
    const source = file(
      syntheticLas(
        gridPoints(() => 2),
        { epsg: 32610 },
      ),
    );
    const far = { ...SYNTHETIC_TILE, x: SYNTHETIC_TILE.x + 50 };
    const summary = await extractTilePoints({
      mode: 'points',
      sources: [source],
      tile: far,
      radius: 10,
      outDir: outDir(),
    });
    expect(summary).toMatchObject({ selection: 'none', pointsRead: 0, inputs: [] });
  });
});

describe('extractTilePoints on autzen_trim.laz (LAZ 1.2, Oregon Lambert in feet)', () => {
  it('decodes all 110,000 points with laz-perf and keeps the ground of the tile', async () => {
    const summary = await extractTilePoints({
      mode: 'points',
      sources: [AUTZEN],
      tile: { z: 17, x: 20727, y: 47634 },
      radius: 10,
      outDir: outDir(),
    });
    expect(summary).toMatchObject({ inputs: [{ format: 'laz' }], selection: 'ground', pointsRead: 110_000 });
    expect(summary.crs).toBe('WKT "NAD_1983_HARN_Lambert_Conformal_Conic"');
    expect(Object.keys(summary.classes).sort()).toEqual(['1', '2']);
    const z = readFileSync(summary.points!.csv[0]!, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => Number(l.split(',')[2]));
    // Autzen's ground points lie between 406.26 and 434.06 ft (its class-2 Z range).
    expect(Math.min(...z)).toBeGreaterThanOrEqual(406.26);
    expect(Math.max(...z)).toBeLessThanOrEqual(434.06);
  });

  it('sees the whole file when the tile covers it: the class counts of the file', async () => {
    // A zoom-13 tile holds all of Autzen (≈ 360 m × 170 m).
    const summary = await extractTilePoints({
      mode: 'probe',
      sources: [AUTZEN],
      tile: { z: 13, x: 1295, y: 2977 },
      radius: 10,
      outDir: outDir(),
    });
    expect(summary.selection).toBe('ground');
    const all = await extractTilePoints({
      mode: 'points',
      sources: [AUTZEN],
      tile: { z: 13, x: 1295, y: 2977 },
      radius: 10,
      outDir: outDir(),
    });
    expect(all.classes).toEqual({ '1': 83_893, '2': 26_107 });
  });
});

describe('extractTilePoints over a collection: the members under a tile read as one cloud', () => {
  const csvPoints = (path: string) =>
    readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(',').map(Number));

  // The bug it catches: members read each into its own bins (or only the first member read) — the
  // pixels along the quadrant edges would then average points of one side only, a seam in the DTM.
  it('four quadrant files give the whole file’s points, bin for bin, on the tile over their common corner', async () => {
    // z17 20727/47634 holds the point where the four quadrants meet (X 636590.49, Y 849216.55 ft).
    const tile = { z: 17, x: 20727, y: 47634 };
    const whole = await extract([AUTZEN], tile);
    const parts = await extract(AUTZEN_QUADRANTS, tile);
    expect(parts.inputs.map((i) => i.source)).toEqual(AUTZEN_QUADRANTS);
    expect(parts).toMatchObject({
      selection: whole.selection,
      classes: whole.classes,
      pointsInBox: whole.pointsInBox,
    });
    const [a, b] = [csvPoints(whole.points!.csv[0]!), csvPoints(parts.points!.csv[0]!)];
    expect(b).toHaveLength(a.length);
    // Only the order of each bin's sum differs (file order against quadrant order): a few ULPs of
    // a 6-digit coordinate, nothing like a point moved or a bin split.
    a.forEach((p, i) => {
      for (const k of [0, 1, 2]) expect(Math.abs(p[k]! - b[i]![k]!)).toBeLessThan(1e-8);
    });
  });

  // The bug it catches: bins laid on the files' own bounds. A worker is given the members under
  // its metatile, not the whole collection: with the bins' origin at their union's corner, the
  // grid — and every averaged point — would move with which members a worker happened to get.
  it('bins on a grid of the tile alone, whichever members a worker is given', async () => {
    // z19 82906/190540 lies at the south-west quadrant's southern edge; the south-east quadrant
    // reaches lower (its bounds start 18 ft further south) but not this tile.
    const tile = { z: 19, x: 82906, y: 190540 };
    const [sw, se] = [AUTZEN_QUADRANTS[0]!, AUTZEN_QUADRANTS[1]!];
    const alone = await extract([sw], tile, 'points', 2);
    const withFar = await extract([sw, se], tile, 'points', 2);
    expect(withFar.inputs.map((i) => i.source)).toEqual([sw]);
    expect(alone.points!.count).toBeGreaterThan(100);
    expect(readFileSync(withFar.points!.csv[0]!, 'utf8')).toBe(readFileSync(alone.points!.csv[0]!, 'utf8'));
  });

  it('leaves out a member whose points cannot reach the tile', async () => {
    // A z19 tile inside the south-west quadrant, 40 m and more from the others' bounds.
    const tile = { z: 19, x: 82907, y: 190539 };
    const parts = await extract(AUTZEN_QUADRANTS, tile, 'probe', 2);
    expect(parts.inputs.map((i) => i.source)).toEqual([AUTZEN_QUADRANTS[0]]);
  });
});

describe('extractTilePoints refuses what it cannot place or read', () => {
  it('a LAS file without CRS', async () => {
    await expect(
      extractTilePoints({
        mode: 'points',
        sources: [SIMPLE_LAS],
        tile: SYNTHETIC_TILE,
        radius: 10,
        outDir: outDir(),
      }),
    ).rejects.toThrow(UnsupportedCrsError);
  });

  it('a file that is not LAS at all', async () => {
    const source = file(new TextEncoder().encode('II*\0 this is a TIFF, not a point cloud'));
    await expect(extract([source], SYNTHETIC_TILE)).rejects.toThrow(UnrecognisedFormatError);
  });

  it('a truncated LAS file', async () => {
    const whole = syntheticLas(
      gridPoints(() => 2),
      { epsg: 32610 },
    );
    const source = file(whole.subarray(0, whole.byteLength - 1000));
    await expect(extract([source], SYNTHETIC_TILE)).rejects.toThrow(TruncatedSourceError);
  });
});

describe('loadLazPerf', () => {
  it('leaves no process-wide exception hooks behind', async () => {
    const before = [process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')];
    await loadLazPerf();
    expect([process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')]).toEqual(
      before,
    );
  });
});
