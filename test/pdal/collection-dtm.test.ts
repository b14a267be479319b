import { describe, expect, it } from 'vitest';
import { QUADRANTS_TWO_CRS, quadrantsAgainstWhole } from '../support/quadrant-dtm.js';

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

  /**
   * The bug it catches: a member in another CRS merged without being reprojected first (its
   * points, UTM metres read as Lambert feet, land kilometres away) or left out of the merge: the
   * north-east tiles would then lose thousands of cells, or differ by feet.
   *
   * The tolerance: the reprojected member's coordinates were rounded to its own 1 cm grid when
   * PDAL wrote it, so its ground points sit up to 7 mm from where the whole file has them. IDW
   * weighs a point by the inverse square of its distance to a cell's centre: a point a few
   * centimetres from a centre moves that cell by up to a few tenths of a foot on a slope, and a
   * cell at exactly the search radius from its nearest point may gain or lose it. Measured: at
   * most 0.26 ft, 3 cells of 65,536 in coverage; the tiles the member does not reach are exact.
   */
  it('one member in another CRS (the north-east quadrant in UTM 10N) is reprojected before the merge', async () => {
    const run = await quadrantsAgainstWhole(18, { GEOHUB_POINTCLOUD_ENGINE: 'pdal' }, QUADRANTS_TWO_CRS);
    expect(run.summary.status).toBe('SUCCEEDED');
    expect(run.collected).toEqual(run.tiles);
    for (const f of run.figures) {
      expect(f.cells, f.tile).toBeGreaterThan(0);
      expect(f.nodataApart, f.tile).toBeLessThanOrEqual(10);
      expect(f.maxAbs, f.tile).toBeLessThanOrEqual(0.5);
    }
    // The tiles the north-east member does not reach are read from the others alone: exact.
    expect(run.figures.filter((f) => f.maxAbs === 0 && f.nodataApart === 0).length).toBeGreaterThanOrEqual(6);
  });
});
