import { describe, expect, it } from 'vitest';
import { quadrantsAgainstWhole } from '../support/quadrant-dtm.js';

/**
 * Issue 38's point-cloud acceptance, on the engine `npm test` has (laz-perf + gdal_grid; PDAL's is
 * test/pdal/collection-dtm.test.ts): autzen_trim.laz cut into four quadrant files gives the DTM of
 * the whole file. The tolerance is the gridding's own non-determinism here: the members are read
 * in another order than the whole file's points, so each cell's sums are added in another order —
 * a few units in the last place of a double, which can move the Float32 cell by one ULP (3e-5 ft
 * at Autzen's 400–500 ft). Nothing else may differ: not one cell's nodata, not a tile.
 *
 * The bug it catches: a sub-tile gridded from its own member only (or each member gridded apart):
 * the cells within the search radius of a quadrant edge then lose the neighbour's points, and
 * differ by feet, or turn nodata, on every tile the edges cross.
 */
describe('geohub run over a point-cloud collection: four quadrant LAZ files, one seamless DTM', () => {
  it('gives the whole file’s DTM on every tile, the tiles across the quadrant edges included', async () => {
    const run = await quadrantsAgainstWhole(18, { GEOHUB_POINTCLOUD_ENGINE: 'local' });
    expect(run.summary.status).toBe('SUCCEEDED');
    expect(run.collected).toEqual(run.tiles);
    const crossing = run.figures.filter((f) => f.overEdge);
    expect(crossing.length).toBeGreaterThanOrEqual(4);
    expect(crossing.length).toBeLessThan(run.figures.length);
    for (const f of run.figures) {
      expect(f.cells, f.tile).toBeGreaterThan(0);
      expect(f.nodataApart, f.tile).toBe(0);
      expect(f.maxUlps, f.tile).toBeLessThanOrEqual(1);
    }
    expect(run.stac['geohub:members']).toEqual(['ne.laz', 'nw.laz', 'se.laz', 'sw.laz']);
  });
});
