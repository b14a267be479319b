import { describe, expect, it } from 'vitest';
import type { RasterHeader } from '../../../../lib/source/source-header.js';
import {
  EmptyFootprintError,
  MissingCrsError,
  NotGeoreferencedError,
  TooManyTilesError,
} from '../../../../lib/split/errors.js';
import { planTiles } from '../../../../lib/split/plan-tiles.js';
import { bboxCorners } from '../../../../lib/tiling/bbox.js';
import { BoundsOutsideCrsError, UnsupportedCrsError } from '../../../../lib/tiling/errors.js';
import { tileBounds } from '../../../../lib/tiling/tile-bounds.js';
import { resolutionAt } from '../../../../lib/tiling/web-mercator.js';
import { pointCloudHeader } from '../../../support/point-cloud-header.js';

/** A raster header exactly covering tile z/x/y in EPSG:3857 at `size` pixels a side. */
function mercatorRaster(z: number, x: number, y: number, size: number): RasterHeader {
  const b = tileBounds(z, x, y);
  const res = (b.maxX - b.minX) / size;
  const bbox = [b.minX, b.minY, b.maxX, b.maxY] as const;
  return {
    kind: 'raster',
    format: 'geotiff',
    bytes: 1,
    width: size,
    height: size,
    bands: 1,
    dataType: 'Byte',
    nodata: null,
    tiled: true,
    geoTransform: [b.minX, res, 0, b.maxY, 0, -res],
    corners: bboxCorners(bbox),
    bbox,
    crs: { kind: 'epsg', code: 3857 },
  };
}

const cloud = pointCloudHeader;

describe('planTiles', () => {
  it('places a grid-aligned raster on exactly its tiles, at its native zoom by default', () => {
    // One z10 tile at 1024 px: its pixels are z12 pixels, so 16 tiles at the native zoom 12.
    const plan = planTiles(mercatorRaster(10, 300, 400, 1024), undefined, 'src');
    expect(plan.nativeZoom).toBe(12);
    expect(plan.zoom).toBe(12);
    expect(plan.ranges).toEqual([{ z: 12, minX: 1200, maxX: 1203, minY: 1600, maxY: 1603 }]);
    expect(plan.total).toBe(16);
    expect(plan.resolution).toBeCloseTo(resolutionAt(12), 9);
  });

  it('uses the requested zoom when given', () => {
    expect(planTiles(mercatorRaster(10, 300, 400, 1024), 8, 'src').ranges).toEqual([
      { z: 8, minX: 75, maxX: 75, minY: 100, maxY: 100 },
    ]);
  });

  it('refuses more tiles than the cap, saying how many it computed', () => {
    expect(() => planTiles(mercatorRaster(10, 300, 400, 1024), 16, 'src', 1000)).toThrow(TooManyTilesError);
    expect(() => planTiles(mercatorRaster(10, 300, 400, 1024), 16, 'src', 1000)).toThrow(
      'src at zoom 16 needs 4,096 sub-tiles (64 × 64), more than the cap of 1,000; choose a lower zoom ' +
        '(its native zoom is 12) in the .job.json sidecar',
    );
  });

  it('fails without a CRS, without a geotransform, and with a CRS it cannot resolve', () => {
    const raster = mercatorRaster(10, 300, 400, 1024);
    expect(() => planTiles({ ...raster, crs: undefined }, undefined, 'src')).toThrow(MissingCrsError);
    expect(() => planTiles({ ...raster, crs: undefined }, undefined, 'src')).toThrow(
      'src has no coordinate reference system (no GeoKeys): assign one, e.g. gdal_translate -a_srs EPSG:xxxx',
    );
    expect(() => planTiles({ ...raster, corners: undefined }, undefined, 'src')).toThrow(
      NotGeoreferencedError,
    );
    expect(() => planTiles({ ...raster, crs: { kind: 'epsg', code: 6244 } }, undefined, 'src')).toThrow(
      UnsupportedCrsError,
    );
  });

  it('fails with an empty footprint beyond the Mercator latitudes', () => {
    const polar = {
      ...mercatorRaster(10, 300, 400, 1024),
      crs: { kind: 'epsg' as const, code: 4326 },
      corners: bboxCorners([0, -89, 1, -86]),
      bbox: [0, -89, 1, -86] as const,
    };
    expect(() => planTiles(polar, undefined, 'src')).toThrow(EmptyFootprintError);
    expect(() => planTiles(polar, undefined, 'src')).toThrow(/src covers no area of the Web Mercator map/);
  });

  it('sizes point cloud tiles from the point spacing', () => {
    // 10^6 points on 1 km² (UTM 31N near 45°N): 1 m spacing, about 1.41 m in Mercator: zoom 17.
    const plan = planTiles(cloud(), undefined, 'src');
    expect(plan.resolution).toBeGreaterThan(1.3);
    expect(plan.resolution).toBeLessThan(1.5);
    expect(plan.nativeZoom).toBe(17);
  });

  it('fails on a point cloud with no points or no extent', () => {
    expect(() => planTiles(cloud({ pointCount: 0 }), undefined, 'src')).toThrow(EmptyFootprintError);
    expect(() =>
      planTiles(cloud({ bbox: [500_000, 5_000_000, 500_000, 5_000_000] }), undefined, 'src'),
    ).toThrow(EmptyFootprintError);
  });

  it('refuses a header whose bounds cannot be in its declared geographic CRS, in one line', () => {
    // A LAS 1.4 test file declares EPSG:4326 with x from 1 to 226: not a piece of the whole world.
    const header = cloud({ bbox: [1, 1, 226, 226], crs: { kind: 'epsg', code: 4326 } });
    expect(() => planTiles(header, undefined, 'cloud.las')).toThrow(BoundsOutsideCrsError);
    expect(() => planTiles(header, undefined, 'cloud.las')).toThrow(
      /^cloud\.las: its bounds \(x 1 to 226, y 1 to 226\) cannot be in its declared CRS EPSG:4326 \(WGS 84\)[^\n]*$/,
    );
  });

  it('plans tiles on both sides of the antimeridian for a source crossing it', () => {
    const plan = planTiles(
      cloud({ bbox: [700_000, 8_000_000, 1_000_000, 8_200_000], crs: { kind: 'epsg', code: 32760 } }),
      8,
      'fiji.las',
    );
    expect(plan.ranges).toHaveLength(2);
    const columns = plan.ranges.flatMap((r) => [r.minX, r.maxX]);
    expect(columns).toContain(0);
    expect(columns).toContain(255);
    expect(plan.total).toBe(
      plan.ranges.reduce((n, r) => n + (r.maxX - r.minX + 1) * (r.maxY - r.minY + 1), 0),
    );
  });
});
