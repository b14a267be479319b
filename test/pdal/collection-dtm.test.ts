import { describe, expect, it } from 'vitest';
import { quadrantsAgainstWhole } from '../support/quadrant-dtm.js';

/**
 * Issue 38's point-cloud acceptance on the production engine: one PDAL pipeline per sub-tile,
 * its members' readers merged into one cloud before the crop (pdal-dtm-pipeline.ts). The
 * tolerance is writers.gdal's own: its IDW adds each cell's neighbours in the order the merged
 * view holds them, and the members' order is not the whole file's, so a cell's sum may round
 * differently — one Float32 ULP (3e-5 ft at Autzen's 400–500 ft). Coverage may not differ at all.
 *
 * The bug it catches: the readers listed without filters.merge (PDAL then runs the crop and the
 * writer once per member, the last member's raster replacing the others'), or a sub-tile given
 * only the member it lies in: the cells near a quadrant edge lose the neighbour's points.
 */
describe('geohub run over a point-cloud collection with PDAL: four quadrant LAZ files, one seamless DTM', () => {
  it('gives the whole file’s DTM on every tile, the tiles across the quadrant edges included', async () => {
    const run = await quadrantsAgainstWhole(18, { GEOHUB_POINTCLOUD_ENGINE: 'pdal' });
    expect(run.summary.status).toBe('SUCCEEDED');
    expect(run.collected).toEqual(run.tiles);
    expect(run.figures.filter((f) => f.overEdge).length).toBeGreaterThanOrEqual(4);
    for (const f of run.figures) {
      expect(f.cells, f.tile).toBeGreaterThan(0);
      expect(f.nodataApart, f.tile).toBe(0);
      expect(f.maxUlps, f.tile).toBeLessThanOrEqual(1);
    }
  });
});
