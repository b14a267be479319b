import { describe, expect, it } from 'vitest';
import {
  EPSG_REGISTRY_ORIGIN,
  type EpsgEntry,
  epsgCodes,
  epsgEntry,
} from '../../../lib/tiling/epsg-database.js';
import { type Distance, distributionTable, measureDistances } from '../../support/crs-distance-table.js';

/*
 * Every projected and 2D geographic code of the registry, a point at the centre of its area of
 * use: where geohub puts it (proj4 with the registry's definition) against where GDAL puts it
 * (test/support/crs-distances.py, PROJ with the grids Debian's proj-data installs). docs/crs.md
 * tables the distribution this prints.
 */

/** The distance the docs allow a code: 1 m, or the measured error of a grid geohub does not apply. */
function bound(entry: EpsgEntry): number {
  if (entry.grid?.metres !== undefined) return Math.max(1, entry.grid.metres * 1.05 + 0.05);
  return 1;
}

const describeDistance = (d: Distance) =>
  'metres' in d
    ? `EPSG:${d.code} ${d.metres.toFixed(3)} m (${epsgEntry(d.code)?.shift}, ${epsgEntry(d.code)?.via?.join(' + ')})`
    : `EPSG:${d.code} ${d.failed}: ${d.why}`;

describe('every EPSG code of the registry, against GDAL', () => {
  it('within 1 m of GDAL wherever PROJ uses no grid, within the measured grid error elsewhere', {
    timeout: 600_000,
  }, async ({ signal }) => {
    const codes = [...epsgCodes('CRS-PROJCRS'), ...epsgCodes('CRS-GEOGCRS')].sort((a, b) => a - b);
    expect(codes.length).toBeGreaterThan(5_000);
    const { proj, epsg, distances } = await measureDistances(codes, (c) => bound(epsgEntry(c)!), signal);
    // The registry is PROJ's: another PROJ or EPSG dataset means deriving it again
    // (scripts/derive-crs-registry.py), not a tolerance.
    expect({ proj, epsg }).toEqual({ proj: EPSG_REGISTRY_ORIGIN.proj, epsg: EPSG_REGISTRY_ORIGIN.epsg });
    console.log(distributionTable(distances));

    const over = distances.filter((d) => 'metres' in d && d.metres > bound(epsgEntry(d.code)!));
    expect(over.map(describeDistance)).toEqual([]);
    // geohub places every code GDAL places, but those whose method proj4 lacks (refused in one line).
    const failed = distances.filter((d) => 'failed' in d && d.failed === 'geohub');
    expect(failed.map(describeDistance)).toEqual([]);
    const refused = distances.filter((d) => 'failed' in d && d.failed === 'refused');
    for (const d of refused)
      expect(describeDistance(d)).toMatch(/cannot be reprojected: (its projection method|PROJ)/);
    // GDAL cannot place the centre of 41 codes' areas (docs/crs.md): Greenland's old zones, the
    // UTM grid systems, … ; more means the oracle or PROJ changed.
    const gdalFailed = distances.filter((d) => 'failed' in d && d.failed === 'gdal');
    console.log('GDAL fails:', gdalFailed.map(describeDistance));
    expect(gdalFailed.length).toBeLessThanOrEqual(41);
    // The named CRSs of docs/crs.md are placed within 1 m where PROJ uses no grid.
    for (const code of [28992, 31370, 21781, 27700, 26715, 32054, 4301, 30169, 2443, 5514])
      expect(
        distances.find((d) => d.code === code),
        `EPSG:${code}`,
      ).toMatchObject({
        metres: expect.any(Number),
      });
  });
});
