import { readFileSync } from 'node:fs';
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { UnsupportedCrsError } from '../../../../lib/tiling/errors.js';
import { resolveCrs } from '../../../../lib/tiling/resolve-crs.js';

// Reference values from `gdaltransform -s_srs EPSG:xxxx -t_srs EPSG:3857` (GDAL 3.6.2, PROJ 9).
const GDAL = {
  utm18n: { from: [101985, 2826915], to: [-8789636.70787198, 2938035.23832365] },
  nad27utm11: { from: [440720, 3751320], to: [-13095852.2996359, 4015700.00528197] },
};

const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/crs/${name}`, import.meta.url), 'utf8');

const toMercator = (definition: string, p: number[]) => proj4(definition, 'EPSG:3857', p);

describe('resolveCrs', () => {
  it('resolves WGS 84 UTM zones north and south', () => {
    const north = resolveCrs({ kind: 'epsg', code: 32618 });
    expect(north.label).toBe('EPSG:32618 (WGS 84 / UTM zone 18N)');
    const [x, y] = toMercator(north.definition, GDAL.utm18n.from);
    expect(x).toBeCloseTo(GDAL.utm18n.to[0]!, 3);
    expect(y).toBeCloseTo(GDAL.utm18n.to[1]!, 3);
    expect(resolveCrs({ kind: 'epsg', code: 32760 }).definition).toContain('+zone=60 +south');
    expect(resolveCrs({ kind: 'epsg', code: 32601 }).definition).toContain('+zone=1 ');
  });

  it('resolves NAD27 UTM (byte.tif) within tens of metres of GDAL, with the datum shift of its area’s centre', () => {
    const crs = resolveCrs({ kind: 'epsg', code: 26711, citation: 'NAD27 / UTM zone 11N' });
    expect(crs.label).toBe('EPSG:26711 (NAD27 / UTM zone 11N)');
    const [x, y] = toMercator(crs.definition, GDAL.nad27utm11.from);
    // One shift per CRS: PROJ's at the centre of the zone's area (Mexico's NAD27 to WGS 84 (13));
    // in California GDAL takes another (docs/crs.md, "One shift per CRS"): 21 m, not the 170 m of none.
    const off = Math.hypot(x! - GDAL.nad27utm11.to[0]!, y! - GDAL.nad27utm11.to[1]!);
    expect(off).toBeLessThan(30);
  });

  it('knows Web Mercator under its several codes and says it needs no transformation', () => {
    for (const code of [3857, 900913, 3785])
      expect(resolveCrs({ kind: 'epsg', code }).webMercator).toBe(true);
    expect(resolveCrs({ kind: 'epsg', code: 4326 }).webMercator).toBe(false);
  });

  it('resolves national CRSs from the EPSG registry, in any linear unit', () => {
    // Lambert-93 (EPSG:2154): the projection's origin is at 3°E 46.5°N, at (700000, 6600000).
    const lambert93 = resolveCrs({ kind: 'epsg', code: 2154 });
    expect(lambert93.label).toBe('EPSG:2154 (RGF93 v1 / Lambert-93)');
    const [lon, lat] = proj4(lambert93.definition, 'EPSG:4326', [700000, 6600000]);
    expect(lon).toBeCloseTo(3, 9);
    expect(lat).toBeCloseTo(46.5, 9);
    // NY Long Island in US survey feet (EPSG:2263): false easting 300000 m = 984250 ftUS.
    const [lon2] = proj4(resolveCrs({ kind: 'epsg', code: 2263 }).definition, 'EPSG:4326', [984250, 0]);
    expect(lon2).toBeCloseTo(-74, 9);
    expect(resolveCrs({ kind: 'epsg', code: 4326 }).geographic).toBe(true);
    expect(resolveCrs({ kind: 'epsg', code: 2154 }).geographic).toBe(false);
  });

  it('replaces a datum grid proj4 cannot load by the Helmert shift of that datum', () => {
    const osgb = resolveCrs({ kind: 'epsg', code: 27700 }).definition;
    expect(osgb).not.toContain('nadgrids');
    expect(osgb).toContain('+towgs84=446.448,-125.157,542.06');
  });

  it('fails with one line naming what cannot be reprojected', () => {
    expect(() => resolveCrs({ kind: 'epsg', code: 6244 })).toThrow(UnsupportedCrsError);
    expect(() => resolveCrs({ kind: 'epsg', code: 6244 })).toThrow(
      /^EPSG:6244 \(MAGNA-SIRGAS \/ Arauca urban grid\) cannot be reprojected: its projection method col_urban is not one proj4 implements$/,
    );
    expect(() => resolveCrs({ kind: 'epsg', code: 999999 })).toThrow(
      /^EPSG:999999 is not a code of the EPSG registry/,
    );
    expect(() => resolveCrs({ kind: 'epsg', code: 5703 })).toThrow(
      /^EPSG:5703 \(NAVD88 height\) is a vertical CRS, not a map CRS/,
    );
  });

  it('builds a definition from user-defined GeoKeys (LAEA of float_raster_with_nodata.tif)', () => {
    const crs = resolveCrs({
      kind: 'user-defined',
      description: 'LAEA',
      keys: {
        GTModelTypeGeoKey: 1,
        GeographicTypeGeoKey: 32767,
        GeogSemiMajorAxisGeoKey: 6378137,
        GeogInvFlatteningGeoKey: 298.257222101,
        ProjectedCSTypeGeoKey: 32767,
        ProjCoordTransGeoKey: 10,
        ProjCenterLatGeoKey: 52,
        ProjCenterLongGeoKey: 10,
        ProjFalseEastingGeoKey: 4321000,
        ProjFalseNorthingGeoKey: 3210000,
      },
    });
    const [lon, lat] = proj4(crs.definition, 'EPSG:4326', [4321000, 3210000]);
    expect(lon).toBeCloseTo(10, 9);
    expect(lat).toBeCloseTo(52, 9);
    expect(() =>
      resolveCrs({
        kind: 'user-defined',
        description: 'x',
        keys: { GTModelTypeGeoKey: 1, ProjCoordTransGeoKey: 4 },
      }),
    ).toThrow(
      /^a user-defined CRS \(x\) cannot be reprojected: its projection method Oblique Mercator \(Laborde\) is not one proj4 implements$/,
    );
  });

  it('passes WKT to proj4, taking the horizontal part of a compound CRS', () => {
    const wkt =
      'COMPD_CS["NAD83 / Oregon LCC (m) + NAVD88 height",PROJCS["NAD83 / Oregon LCC (m)",GEOGCS["NAD83",DATUM["North_American_Datum_1983",SPHEROID["GRS 1980",6378137,298.257222101]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],PROJECTION["Lambert_Conformal_Conic_2SP"],PARAMETER["latitude_of_origin",41.75],PARAMETER["central_meridian",-120.5],PARAMETER["standard_parallel_1",43],PARAMETER["standard_parallel_2",45.5],PARAMETER["false_easting",400000],PARAMETER["false_northing",0],UNIT["metre",1]],VERT_CS["NAVD88 height",VERT_DATUM["North American Vertical Datum 1988",2005],UNIT["metre",1]]]';
    const crs = resolveCrs({ kind: 'wkt', wkt });
    expect(crs.label).toBe('WKT "NAD83 / Oregon LCC (m) + NAVD88 height"');
    expect(crs.definition.startsWith('PROJCS["NAD83 / Oregon LCC (m)"')).toBe(true);
    const [lon, lat] = proj4(crs.definition, 'EPSG:4326', [400000, 0]);
    expect(lon).toBeCloseTo(-120.5, 6);
    expect(lat).toBeCloseTo(41.75, 6);
  });

  it('reads Lambert-93 as WKT2 and as ESRI WKT (gdalsrsinfo -o wkt2_2019 / -o wkt_esri EPSG:2154)', () => {
    for (const [name, label] of [
      ['epsg-2154.wkt2', 'WKT "RGF93 v1 / Lambert-93"'],
      ['epsg-2154.esri.wkt', 'WKT "RGF_1993_Lambert_93"'],
    ] as const) {
      const crs = resolveCrs({ kind: 'wkt', wkt: fixture(name) });
      expect(crs.label).toBe(label);
      expect(crs.axes).toBe('en');
      // The projection's origin: 3°E 46.5°N at (700000, 6600000), as gdaltransform says.
      const [lon, lat] = proj4(crs.definition, 'EPSG:4326', [700000, 6600000]);
      expect(lon).toBeCloseTo(3, 9);
      expect(lat).toBeCloseTo(46.5, 9);
      // And a point 100 km away agrees with the registry's definition to the millimetre.
      const registry = proj4(
        resolveCrs({ kind: 'epsg', code: 2154 }).definition,
        'EPSG:4326',
        [800000, 6700000],
      );
      const [lon2, lat2] = proj4(crs.definition, 'EPSG:4326', [800000, 6700000]);
      expect(lon2).toBeCloseTo(registry[0]!, 8);
      expect(lat2).toBeCloseTo(registry[1]!, 8);
    }
  });

  it('fails clearly on WKT proj4 cannot parse', () => {
    expect(() =>
      resolveCrs({ kind: 'wkt', wkt: 'PROJCS["nonsense",PROJECTION["No_Such_Projection"]]' }),
    ).toThrow(
      /WKT "nonsense" cannot be reprojected: its projection method No_Such_Projection is not one proj4 implements/,
    );
    expect(() => resolveCrs({ kind: 'wkt', wkt: '  \0' })).toThrow(/the WKT CRS definition is empty/);
    // A WKT2 method proj4 lacks is named in one line (proj4's own error quotes the whole WKT).
    const laborde =
      'PROJCRS["Laborde",BASEGEOGCRS["Tananarive",DATUM["Tananarive 1925",ELLIPSOID["International 1924",6378388,297]]],' +
      'CONVERSION["Laborde",METHOD["Laborde Oblique Mercator"],PARAMETER["Longitude of projection centre",46.4]],' +
      'CS[Cartesian,2],AXIS["easting (X)",east],AXIS["northing (Y)",north],LENGTHUNIT["metre",1]]';
    expect(() => resolveCrs({ kind: 'wkt', wkt: laborde })).toThrow(
      /^WKT "Laborde" cannot be reprojected: its projection method Laborde Oblique Mercator is not one proj4 implements$/,
    );
  });
});
