import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { TILE_PIXELS } from '../../../../lib/pointcloud/dtm-grid.js';
import { bufferedTile, SOURCE_MARGIN_M, tileRegion } from '../../../../lib/pointcloud/tile-region.js';
import { resolveCrs } from '../../../../lib/tiling/resolve-crs.js';
import { tileBounds } from '../../../../lib/tiling/tile-bounds.js';

// The CRS of examples/pointcloud/autzen_trim.laz: Oregon Lambert, NAD83(HARN), international feet.
const AUTZEN_WKT =
  'PROJCS["NAD_1983_HARN_Lambert_Conformal_Conic",GEOGCS["GCS_North_American_1983_HARN",' +
  'DATUM["NAD83_High_Accuracy_Regional_Network",SPHEROID["GRS_1980",6378137,298.257222101]],' +
  'PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],PROJECTION["Lambert_Conformal_Conic_2SP"],' +
  'PARAMETER["standard_parallel_1",43],PARAMETER["standard_parallel_2",45.5],PARAMETER["latitude_of_origin",41.75],' +
  'PARAMETER["central_meridian",-120.5],PARAMETER["false_easting",1312335.958005249],PARAMETER["false_northing",0],' +
  'UNIT["foot",0.3048]]';
const TILE = { z: 17, x: 20727, y: 47634 };

describe('tileRegion', () => {
  it('keeps the tile exact and grows it by the radius and one pixel', () => {
    const { bounds, cell, buffered } = bufferedTile(TILE, 10);
    expect(bounds).toEqual(tileBounds(17, 20727, 47634));
    expect(cell).toBeCloseTo((bounds.maxX - bounds.minX) / TILE_PIXELS, 12);
    expect(buffered.minX).toBeCloseTo(bounds.minX - 10 - cell, 6);
    expect(buffered.maxY).toBeCloseTo(bounds.maxY + 10 + cell, 6);
  });

  it('holds the whole buffered tile, edges included, in the source CRS box', () => {
    const crs = resolveCrs({ kind: 'wkt', wkt: AUTZEN_WKT });
    const region = tileRegion(TILE, 10, crs);
    expect(region.source).toBeDefined();
    const [minX, minY, maxX, maxY] = region.source!;
    const toSource = proj4('EPSG:3857', crs.definition);
    const { buffered } = region;
    for (let i = 0; i <= 10; i += 1) {
      const t = i / 10;
      for (const [x, y] of [
        [buffered.minX + t * (buffered.maxX - buffered.minX), buffered.minY],
        [buffered.minX + t * (buffered.maxX - buffered.minX), buffered.maxY],
        [buffered.minX, buffered.minY + t * (buffered.maxY - buffered.minY)],
        [buffered.maxX, buffered.minY + t * (buffered.maxY - buffered.minY)],
      ] as const) {
        const [sx, sy] = toSource.forward([x, y]);
        expect(sx).toBeGreaterThan(minX);
        expect(sx).toBeLessThan(maxX);
        expect(sy).toBeGreaterThan(minY);
        expect(sy).toBeLessThan(maxY);
      }
    }
    // The margin (≥ 10 m ≈ 23 ft here) is there, but not much more: the box is not a whole county.
    expect(maxX - minX).toBeLessThan(((buffered.maxX - buffered.minX) / 0.3048) * 0.75 + 200);
  });

  it('gives a pixel size in source units: a 3857 metre is cos(latitude) ground metres, here in feet', () => {
    const region = tileRegion(TILE, 10, resolveCrs({ kind: 'wkt', wkt: AUTZEN_WKT }));
    const expected = (region.cell * Math.cos((44.05 * Math.PI) / 180)) / 0.3048;
    expect(region.sourceCell / expected).toBeGreaterThan(0.98);
    expect(region.sourceCell / expected).toBeLessThan(1.02);
  });

  it('needs no projection for a Web Mercator source', () => {
    const region = tileRegion(TILE, 10, resolveCrs({ kind: 'epsg', code: 3857 }));
    const margin = Math.max(2 * region.cell, SOURCE_MARGIN_M);
    expect(region.source).toEqual([
      region.buffered.minX - margin,
      region.buffered.minY - margin,
      region.buffered.maxX + margin,
      region.buffered.maxY + margin,
    ]);
    expect(region.sourceCell).toBe(region.cell);
  });
});
