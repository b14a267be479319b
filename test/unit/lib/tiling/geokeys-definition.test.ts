import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { UnsupportedCrsError } from '../../../../lib/tiling/errors.js';
import { geoKeysDefinition } from '../../../../lib/tiling/geokeys-definition.js';

// Keys as GDAL 3.6 writes them for `gdal_create -a_srs '<PROJ string>'` (read back with geotiff).
const CLARKE_1866 = {
  GeographicTypeGeoKey: 32767,
  GeogSemiMajorAxisGeoKey: 6378206.4,
  GeogInvFlatteningGeoKey: 294.978698213898,
};

describe('geoKeysDefinition', () => {
  it('builds a Lambert conformal conic in US survey feet: false origin converted to metres', () => {
    const definition = geoKeysDefinition({
      GTModelTypeGeoKey: 1,
      ...CLARKE_1866,
      ProjectedCSTypeGeoKey: 32767,
      ProjCoordTransGeoKey: 8,
      ProjLinearUnitsGeoKey: 9003,
      ProjStdParallel1GeoKey: 33,
      ProjStdParallel2GeoKey: 45,
      ProjFalseOriginLongGeoKey: -96,
      ProjFalseOriginLatGeoKey: 39,
      ProjFalseOriginEastingGeoKey: 1000000,
      ProjFalseOriginNorthingGeoKey: 0,
    });
    expect(definition).toContain('+proj=lcc');
    const [lon, lat] = proj4(definition, 'EPSG:4326', [1000000, 0]);
    expect(lon).toBeCloseTo(-96, 9);
    expect(lat).toBeCloseTo(39, 9);
  });

  it('names the datum through its geographic CRS code (shift included) and UTM by conversion code', () => {
    const definition = geoKeysDefinition({
      GTModelTypeGeoKey: 1,
      GeographicTypeGeoKey: 4277,
      ProjectionGeoKey: 16030,
    });
    // OSGB36: Airy 1830 by its axes, and PROJ's OSGB36 to WGS 84 (6).
    expect(definition).toMatch(/^\+proj=utm \+zone=30 \+a=6377563\.396 \+rf=299\.3249\d* \+towgs84=446\.448/);
  });

  it('builds polar stereographic variants A and B as GDAL reads them', () => {
    const b = geoKeysDefinition({
      GTModelTypeGeoKey: 1,
      GeographicTypeGeoKey: 4326,
      ProjCoordTransGeoKey: 15,
      ProjNatOriginLatGeoKey: -71,
      ProjStraightVertPoleLongGeoKey: 0,
    });
    expect(b).toContain('+proj=stere +lat_0=-90 +lat_ts=-71 +lon_0=0');
    const a = geoKeysDefinition({
      GTModelTypeGeoKey: 1,
      GeographicTypeGeoKey: 4326,
      ProjCoordTransGeoKey: 15,
      ProjNatOriginLatGeoKey: 90,
      ProjStraightVertPoleLongGeoKey: -45,
      ProjScaleAtNatOriginGeoKey: 0.994,
    });
    expect(a).toContain('+proj=stere +lat_0=90 +lon_0=-45 +k=0.994');
  });

  it('is geographic for a geographic model, with the prime meridian', () => {
    expect(
      geoKeysDefinition({ GTModelTypeGeoKey: 2, ...CLARKE_1866, GeogPrimeMeridianLongGeoKey: 2.33722917 }),
    ).toBe('+proj=longlat +a=6378206.4 +rf=294.978698213898 +pm=2.33722917 +no_defs');
  });

  it('names the method it cannot express', () => {
    expect(() => geoKeysDefinition({ GTModelTypeGeoKey: 1, ProjCoordTransGeoKey: 2 })).toThrow(
      UnsupportedCrsError,
    );
    expect(() => geoKeysDefinition({ GTModelTypeGeoKey: 1, ProjCoordTransGeoKey: 2 })).toThrow(
      'its projection method Transverse Mercator (modified Alaska) is not one proj4 implements',
    );
    expect(() => geoKeysDefinition({ GTModelTypeGeoKey: 1 })).toThrow(/ProjCoordTransGeoKey is missing/);
  });
});
