import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import proj4 from 'proj4';
import { expect } from 'vitest';
import { tileBounds } from '../../lib/tiling/tile-bounds.js';
import { runCliLeavingNothing } from './cli.js';
import { lasFacts } from './dtm-tile-checks.js';
import { findFiles } from './find-files.js';
import { readTilePixels } from './raster-pixels.js';
import { tempDir } from './temp-dir.js';

export const AUTZEN = new URL('../../examples/pointcloud/autzen_trim.laz', import.meta.url).pathname;
/** autzen_trim.laz cut by PDAL into four quadrant files at this corner (test/fixtures/README.md). */
const quadrant = (name: string) =>
  new URL(`../fixtures/pointcloud/autzen-quadrants/${name}.laz`, import.meta.url).pathname;
export const QUADRANTS = ['sw', 'se', 'nw', 'ne'].map(quadrant);
/** The same, the north-east quadrant reprojected to NAD83(HARN) / UTM 10N: a collection in two CRSs. */
export const QUADRANTS_TWO_CRS = ['sw', 'se', 'nw', 'ne-utm10n'].map(quadrant);
const CORNER = [636590.49, 849216.55] as const;
const NODATA = -9999;

/** One Float32 unit in the last place at |v|: the spacing of the values a DTM cell can hold there. */
export const ulp32 = (v: number) => 2 ** (Math.floor(Math.log2(Math.max(Math.abs(v), 2 ** -126))) - 23);

export interface TileFigures {
  readonly tile: string;
  /** Whether a quadrant edge runs through the tile (its cells then grid points of two or more files). */
  readonly overEdge: boolean;
  /** Cells with ground in both rasters. */
  readonly cells: number;
  /** Cells nodata in one raster only. */
  readonly nodataApart: number;
  /** The largest |ΔZ| (feet), and the same in Float32 ULPs of the cell's value. */
  readonly maxAbs: number;
  readonly maxUlps: number;
}

/** Whether the quadrants' dividing lines (source CRS, feet) cross the tile. */
function overEdge(z: number, x: number, y: number): boolean {
  const { wkt } = lasFacts(new Uint8Array(readFileSync(AUTZEN)));
  const b = tileBounds(z, x, y);
  const corners = [
    [b.minX, b.minY],
    [b.maxX, b.minY],
    [b.minX, b.maxY],
    [b.maxX, b.maxY],
  ].map((c) => proj4('EPSG:3857', wkt!, c));
  const xs = corners.map((c) => c[0]!);
  const ys = corners.map((c) => c[1]!);
  return (
    (Math.min(...xs) < CORNER[0] && CORNER[0] < Math.max(...xs)) ||
    (Math.min(...ys) < CORNER[1] && CORNER[1] < Math.max(...ys))
  );
}

/**
 * `geohub run` of autzen_trim.laz and of its four quadrant files (a directory: one collection) at
 * `zoom`, with the environment given (the engine); every tile of the two runs compared cell by cell.
 */
export async function quadrantsAgainstWhole(
  zoom: number,
  env: Record<string, string> = {},
  quadrants: readonly string[] = QUADRANTS,
) {
  const dir = tempDir('geohub-quadrants-');
  const parts = join(dir, 'parts');
  mkdirSync(parts);
  for (const q of quadrants) copyFileSync(q, join(parts, q.split('/').at(-1)!));
  const job = join(dir, 'dtm.job.json');
  writeFileSync(job, JSON.stringify({ zoom }));
  const outputs = { whole: join(dir, 'whole'), parts: join(dir, 'collected') };
  const w = await runCliLeavingNothing(['run', AUTZEN, '--job', job, '--out', outputs.whole, '--json'], env);
  expect(w.code, w.stderr).toBe(0);
  const c = await runCliLeavingNothing(['run', parts, '--job', job, '--out', outputs.parts, '--json'], env);
  expect(c.code, c.stderr).toBe(0);
  const tilesIn = (out: string) =>
    findFiles(out, (n) => n.endsWith('.tif'))
      .map((f) => relative(out, f))
      .sort();
  const tiles = tilesIn(outputs.whole);
  const figures: TileFigures[] = [];
  for (const tile of tiles) {
    const [a, b] = await Promise.all([
      readTilePixels(join(outputs.whole, tile)),
      readTilePixels(join(outputs.parts, tile)),
    ]);
    const [z, x, y] = tile
      .match(/(\d+)\/(\d+)\/(\d+)\.tif$/)!
      .slice(1)
      .map(Number);
    let [cells, nodataApart, maxAbs, maxUlps] = [0, 0, 0, 0];
    const [va, vb] = [a.bands[0]!, b.bands[0]!];
    for (let i = 0; i < va.length; i += 1) {
      const [p, q] = [va[i]!, vb[i]!];
      if ((p === NODATA) !== (q === NODATA)) nodataApart += 1;
      if (p === NODATA || q === NODATA) continue;
      cells += 1;
      maxAbs = Math.max(maxAbs, Math.abs(p - q));
      maxUlps = Math.max(maxUlps, Math.abs(p - q) / ulp32(Math.max(Math.abs(p), Math.abs(q))));
    }
    figures.push({
      tile: `${z}/${x}/${y}`,
      overEdge: overEdge(z!, x!, y!),
      cells,
      nodataApart,
      maxAbs,
      maxUlps,
    });
  }
  return {
    tiles,
    collected: tilesIn(outputs.parts),
    figures,
    summary: JSON.parse(c.stdout) as { status: string; tiles: { total: number; done: number } },
    stac: JSON.parse(readFileSync(join(outputs.parts, 'collection.json'), 'utf8')) as Record<string, unknown>,
  };
}
