import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { readSourceHeader } from '../../../lib/source/read-source-header.js';
import { planTiles } from '../../../lib/split/plan-tiles.js';
import { createMemoryStore } from '../../support/memory-store.js';

/*
 * The tile cover computed by lib/ (geotiff + proj4 + lib/tiling) must equal an oracle computed
 * here from GDAL alone: `gdalinfo -json` gives the size, geotransform and CRS; `gdaltransform`
 * (PROJ) takes 21 points per edge to longitude/latitude; the standard slippy-map formulas give
 * tile numbers. The cover convention is the one lib/tiling documents: a tile counts when the
 * footprint reaches more than a thousandth of a pixel into it.
 */

const ROOT = new URL('../../../', import.meta.url).pathname;
const TOLERANCE = 1 / (256 * 1000);
const POINTS_PER_EDGE = 21;
const scratch = mkdtempSync(join(tmpdir(), 'geohub-oracle-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface GdalInfo {
  size: [number, number];
  geoTransform: number[];
  coordinateSystem: { wkt: string };
}

async function gdalinfo(path: string): Promise<GdalInfo> {
  return JSON.parse((await execa('gdalinfo', ['-json', path])).stdout) as GdalInfo;
}

/** Raster edge points (pixel space → CRS via the geotransform → lon/lat via gdaltransform). */
async function edgeLonLats(info: GdalInfo): Promise<[number, number][]> {
  const [w, h] = info.size;
  const gt = info.geoTransform;
  const pixels: [number, number][] = [];
  const n = POINTS_PER_EDGE - 1;
  for (let i = 0; i < n; i += 1) {
    pixels.push([(w * i) / n, 0], [w, (h * i) / n], [w - (w * i) / n, h], [0, h - (h * i) / n]);
  }
  const input = pixels.map(
    ([c, r]) => `${gt[0]! + c * gt[1]! + r * gt[2]!} ${gt[3]! + c * gt[4]! + r * gt[5]!}`,
  );
  const srs = join(scratch, `srs-${Math.random().toString(36).slice(2)}.wkt`);
  await execa('sh', ['-c', 'cat > "$1"', 'sh', srs], { input: info.coordinateSystem.wkt });
  const { stdout } = await execa(
    'gdaltransform',
    ['-s_srs', srs, '-t_srs', '+proj=longlat +datum=WGS84 +no_defs'],
    {
      input: `${input.join('\n')}\n`,
    },
  );
  return stdout
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).slice(0, 2).map(Number) as [number, number]);
}

/** The standard XYZ formulas (OpenStreetMap wiki), fractional. */
const tileX = (lon: number, z: number) => ((lon + 180) / 360) * 2 ** z;
const tileY = (lat: number, z: number) => {
  const phi = (Math.min(Math.max(lat, -85.0511287798066), 85.0511287798066) * Math.PI) / 180;
  return ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * 2 ** z;
};

async function oracleRange(path: string, z: number) {
  const points = await edgeLonLats(await gdalinfo(path));
  const xs = points.map(([lon]) => tileX(lon, z));
  const ys = points.map(([, lat]) => tileY(lat, z));
  return {
    z,
    minX: Math.floor(Math.min(...xs) + TOLERANCE),
    maxX: Math.ceil(Math.max(...xs) - TOLERANCE) - 1,
    minY: Math.floor(Math.min(...ys) + TOLERANCE),
    maxY: Math.ceil(Math.max(...ys) - TOLERANCE) - 1,
  };
}

async function libPlan(path: string, z?: number) {
  const store = createMemoryStore('oracle');
  store.putBytes('src', new Uint8Array(readFileSync(join(ROOT, path))));
  const { header } = await readSourceHeader(store, 'src');
  return planTiles(header, z, path);
}

/** The zoom whose resolution is closest to what gdalwarp picks for the source in EPSG:3857. */
async function gdalwarpZoom(path: string): Promise<number> {
  const vrt = join(scratch, `warp-${Math.random().toString(36).slice(2)}.vrt`);
  await execa('gdalwarp', ['-q', '-of', 'VRT', '-t_srs', 'EPSG:3857', join(ROOT, path), vrt]);
  const res = (await gdalinfo(vrt)).geoTransform[1]!;
  return Math.round(Math.log2(156543.03392804097 / res));
}

describe('tile cover against a GDAL oracle', () => {
  for (const [path, zooms] of [
    ['examples/raster/RGB.byte.tif', [8, 11]],
    ['examples/raster/shade.tif', [12, 15]],
  ] as const) {
    for (const z of zooms) {
      it(`${path} at zoom ${z}`, async () => {
        const expected = await oracleRange(join(ROOT, path), z);
        const plan = await libPlan(path, z);
        expect(plan.ranges).toEqual([expected]);
        expect(plan.total).toBe((expected.maxX - expected.minX + 1) * (expected.maxY - expected.minY + 1));
      });
    }

    it(`${path}: the native zoom is the one gdalwarp's own resolution suggests`, async () => {
      expect((await libPlan(path)).nativeZoom).toBe(await gdalwarpZoom(path));
    });
  }
});
