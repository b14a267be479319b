import { readFileSync } from 'node:fs';
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { tileRegion } from '../../../../lib/pointcloud/tile-region.js';
import { bboxCorners } from '../../../../lib/tiling/bbox.js';
import { crsConverter } from '../../../../lib/tiling/crs-converter.js';
import type { CrsRef } from '../../../../lib/tiling/crs-ref.js';
import { reprojectFootprint } from '../../../../lib/tiling/reproject-footprint.js';
import { resolveCrs } from '../../../../lib/tiling/resolve-crs.js';
import { ORIGIN_SHIFT, tileSizeAt } from '../../../../lib/tiling/web-mercator.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/crs/${name}`, import.meta.url), 'utf8');

/** Metres between two longitude/latitude points (a sphere is enough to compare with GDAL). */
const metres = (a: readonly number[], b: readonly number[]) => {
  const rad = Math.PI / 180;
  const dx = (a[0]! - b[0]!) * rad * Math.cos(a[1]! * rad);
  const dy = (a[1]! - b[1]!) * rad;
  return Math.hypot(dx, dy) * 6371000;
};

// The user-defined GeoKeys GDAL writes for `+proj=tmerc +axis=wsu +lon_0=19 +ellps=WGS84` (GDAL 3.6.2).
const SOUTH_ORIENTATED_KEYS: CrsRef = {
  kind: 'user-defined',
  description: 'Transverse Mercator (South Orientated)',
  keys: {
    GTModelTypeGeoKey: 1,
    GeographicTypeGeoKey: 32767,
    GeogGeodeticDatumGeoKey: 32767,
    GeogAngularUnitsGeoKey: 9102,
    GeogEllipsoidGeoKey: 7030,
    GeogPrimeMeridianLongGeoKey: 0,
    ProjectedCSTypeGeoKey: 32767,
    ProjectionGeoKey: 32767,
    ProjCoordTransGeoKey: 27,
    ProjLinearUnitsGeoKey: 9001,
    ProjNatOriginLongGeoKey: 19,
    ProjNatOriginLatGeoKey: 0,
    ProjFalseEastingGeoKey: 0,
    ProjFalseNorthingGeoKey: 0,
    ProjScaleAtNatOriginGeoKey: 1,
  },
};

/*
 * Reference points from `gdaltransform -s_srs <CRS> -t_srs EPSG:4326` (GDAL 3.6.2, PROJ 9): the
 * file's x and y in the CRS's own axis order, as GDAL reads a GeoTIFF or LAS file.
 */
const CASES: readonly [string, CrsRef, [number, number], [number, number], number][] = [
  [
    'EPSG:2048 (westing, southing)',
    { kind: 'epsg', code: 2048 },
    [10000, 3700000],
    [18.8924749145801, -33.4259988388173],
    1,
  ],
  [
    'EPSG:22279 (westing, southing)',
    { kind: 'epsg', code: 22279 },
    [10000, 3700000],
    [18.8918502784034, -33.4286132324244],
    5,
  ],
  // S-JTSK: proj4 and PROJ pick different Helmert shifts for it, some metres apart.
  [
    'EPSG:5513 (southing, westing)',
    { kind: 'epsg', code: 5513 },
    [1045000, 743000],
    [14.4224036131771, 50.0695321803084],
    20,
  ],
  [
    'ESRI S-JTSK_Krovak',
    { kind: 'wkt', wkt: fixture('epsg-5513.esri.wkt') },
    [1045000, 743000],
    [14.4224036131771, 50.0695321803084],
    20,
  ],
  [
    'ESRI S-JTSK_Krovak_East_North',
    { kind: 'wkt', wkt: fixture('epsg-5514.esri.wkt') },
    [-743000, -1045000],
    [14.4224036131771, 50.0695321803084],
    20,
  ],
  // The same Lo zone as WKT1, WKT2 and ESRI WKT (a LAS WKT VLR, an ESRI PE citation): proj4 has no
  // south-orientated method, geohub reads it as Transverse Mercator in westing/southing axes.
  ...(['epsg-2048.wkt', 'epsg-2048.wkt2', 'epsg-2048.esri.wkt'] as const).map(
    (name): [string, CrsRef, [number, number], [number, number], number] => [
      name,
      { kind: 'wkt', wkt: fixture(name) },
      [10000, 3700000],
      [18.8924749145801, -33.4259988388173],
      1,
    ],
  ),
  [
    'user-defined south-orientated TM',
    SOUTH_ORIENTATED_KEYS,
    [10000, 3700000],
    [18.8924749145801, -33.4259988388173],
    1,
  ],
];

describe('crsConverter', () => {
  it.each(CASES)('%s: a file point lands where GDAL puts it, and back', (_, ref, file, gdal, within) => {
    const converter = crsConverter(resolveCrs(ref));
    const lonLat = converter.forward(file);
    expect(metres(lonLat, gdal)).toBeLessThan(within);
    const back = converter.inverse([lonLat[0]!, lonLat[1]!]);
    expect(back[0]).toBeCloseTo(file[0], 2);
    expect(back[1]).toBeCloseTo(file[1], 2);
  });

  it('plans a Lo zone footprint in the southern hemisphere, and a point-cloud tile there in file axes', () => {
    const crs = resolveCrs({ kind: 'epsg', code: 2048 });
    // 2 km around Cape Town's (westing 10000, southing 3700000).
    const [, minY, , maxY] = reprojectFootprint(bboxCorners([9000, 3699000, 11000, 3701000]), crs)!;
    expect(maxY).toBeLessThan(0);
    expect(minY).toBeLessThan(maxY);
    const [mx, my] = proj4('EPSG:4326', 'EPSG:3857', [18.8924749145801, -33.4259988388173]);
    const x = Math.floor((mx! + ORIGIN_SHIFT) / tileSizeAt(15));
    const y = Math.floor((ORIGIN_SHIFT - my!) / tileSizeAt(15));
    const source = tileRegion({ z: 15, x, y }, 0, crs).source!;
    expect(source[0]).toBeLessThan(10000);
    expect(source[2]).toBeGreaterThan(10000);
    expect(source[1]).toBeLessThan(3700000);
    expect(source[3]).toBeGreaterThan(3700000);
  });
});
