import { afterEach, describe, expect, it } from 'vitest';
import { findExecutable } from '../../lib/pointcloud/find-executable.js';
import { isAlive } from '../../lib/process/process-table.js';
import { expectTileRaster, gdalinfo, pixels } from '../support/dtm-tile-checks.js';
import { dtmTile, realTools, tilesOver } from '../support/pdal-tile.js';

const AUTZEN = new URL('../../examples/pointcloud/autzen_trim.laz', import.meta.url).pathname;
const ZOOM = 17;
const NODATA = -9999;
const started: { file: string; pid: number }[] = [];
afterEach(() => expect(started.filter(({ pid }) => isAlive(pid))).toEqual([]));

const quantile = (sorted: Float64Array, q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/**
 * The two engines grid the same ground points (class 2, the same buffered tile, the same search
 * radius and IDW power) onto the same 256×256 EPSG:3857 cells with the same nodata rule, but not
 * from the same inputs: PDAL's writers.gdal interpolates every point inside the radius of a
 * cell's centre, the local engine first averages the points falling in each cell and then runs
 * gdal_grid's invdistnn on those averages. So the engines agree where the ground is smooth at the
 * scale of a cell and differ by up to the ground's relief within a radius where it is not (dike
 * edges, ditches). The bounds below say that, in the file's unit (international feet): coverage
 * within 1 % of the tile's cells, the median |ΔZ| under 0.1 ft, the 99th percentile under 2 ft,
 * and no cell further apart than the ground's own range over the tile.
 */
describe('the PDAL engine against the local engine, on autzen_trim.laz', () => {
  it('runs the real PDAL, the version the docs name', async () => {
    expect(await findExecutable('pdal')).toBeDefined();
  });

  it('every tile: the same grid, coverage within 1 %, |ΔZ| median < 0.1 ft and 99th percentile < 2 ft', async () => {
    const tiles = tilesOver(AUTZEN, ZOOM);
    expect(tiles).toHaveLength(4);
    const report: Record<string, unknown>[] = [];
    for (const { x, y } of tiles) {
      const tile = { z: ZOOM, x, y };
      const pdal = await dtmTile('pdal', AUTZEN, tile, realTools(started));
      const local = await dtmTile('local', AUTZEN, tile, realTools(started));
      for (const path of [pdal, local]) expectTileRaster(await gdalinfo(path), ZOOM, x, y);
      const [a, b] = [await pixels(pdal), await pixels(local)];
      let onlyOne = 0;
      const diffs: number[] = [];
      let min = Number.POSITIVE_INFINITY;
      let max = Number.NEGATIVE_INFINITY;
      for (let i = 0; i < a.length; i += 1) {
        const [va, vb] = [a[i]!, b[i]!];
        if ((va === NODATA) !== (vb === NODATA)) onlyOne += 1;
        if (va === NODATA || vb === NODATA) continue;
        diffs.push(Math.abs(va - vb));
        min = Math.min(min, va, vb);
        max = Math.max(max, va, vb);
      }
      const sorted = Float64Array.from(diffs).sort();
      const figures = {
        tile: `${ZOOM}/${x}/${y}`,
        both: diffs.length,
        onlyOne,
        median: quantile(sorted, 0.5),
        p99: quantile(sorted, 0.99),
        max: sorted.at(-1) ?? 0,
        relief: max - min,
      };
      report.push(figures);
      expect(onlyOne, JSON.stringify(figures)).toBeLessThanOrEqual(0.01 * a.length);
      if (diffs.length === 0) continue;
      expect(figures.median, JSON.stringify(figures)).toBeLessThan(0.1);
      expect(figures.p99, JSON.stringify(figures)).toBeLessThan(2);
      expect(figures.max, JSON.stringify(figures)).toBeLessThanOrEqual(figures.relief);
    }
    process.stdout.write(`PDAL vs local engine, autzen_trim.laz z${ZOOM}: ${JSON.stringify(report)}\n`);
  });
});
