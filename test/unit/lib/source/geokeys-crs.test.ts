import { describe, expect, it } from 'vitest';
import { geoKeysFromDirectory } from '../../../../lib/source/geokey-directory.js';
import { crsFromGeoKeys } from '../../../../lib/source/geokeys-crs.js';

describe('crsFromGeoKeys', () => {
  it('names the projected CRS of a projected model', () => {
    expect(
      crsFromGeoKeys({ GTModelTypeGeoKey: 1, ProjectedCSTypeGeoKey: 32618, GTCitationGeoKey: 'UTM 18N|' }),
    ).toEqual({ kind: 'epsg', code: 32618, citation: 'UTM 18N' });
  });

  it('names the geographic CRS of a geographic model', () => {
    expect(crsFromGeoKeys({ GTModelTypeGeoKey: 2, GeographicTypeGeoKey: 4326 })).toEqual({
      kind: 'epsg',
      code: 4326,
    });
  });

  it('says user-defined, with what it can, when the keys describe a CRS without a code', () => {
    const keys = { GTModelTypeGeoKey: 1, ProjectedCSTypeGeoKey: 32767, ProjCoordTransGeoKey: 8 };
    expect(crsFromGeoKeys(keys)).toEqual({
      kind: 'user-defined',
      description: 'projected: ProjectedCSTypeGeoKey 32767, Lambert Conformal Conic (2SP)',
      keys,
    });
    expect(crsFromGeoKeys({ GTModelTypeGeoKey: 2, GeographicTypeGeoKey: 32767 })?.kind).toBe('user-defined');
  });

  it('takes the ESRI PE string GDAL writes for a CRS GeoKeys cannot express (geostationary)', () => {
    const wkt = 'PROJCS["unknown",GEOGCS["unknown"],PROJECTION["Geostationary_Satellite"]]';
    expect(
      crsFromGeoKeys({ GTModelTypeGeoKey: 32767, PCSCitationGeoKey: `ESRI PE String = ${wkt}` }),
    ).toEqual({ kind: 'wkt', wkt });
  });

  it('returns undefined without CRS keys', () => {
    expect(crsFromGeoKeys(null)).toBeUndefined();
    expect(crsFromGeoKeys({})).toBeUndefined();
  });
});

describe('geoKeysFromDirectory', () => {
  it('reads SHORT keys in place and ASCII keys from GeoAsciiParams', () => {
    // version 1.1.0, 3 keys: GTModelType=1, GTCitation (ascii, 5 chars at 0), ProjectedCSType=26711
    const directory = Uint16Array.from([1, 1, 0, 3, 1024, 0, 1, 1, 1026, 34737, 5, 0, 3072, 0, 1, 26711]);
    expect(geoKeysFromDirectory(directory, 'NAD27|')).toEqual({
      GTModelTypeGeoKey: 1,
      GTCitationGeoKey: 'NAD27',
      ProjectedCSTypeGeoKey: 26711,
    });
  });

  it('stops at a directory shorter than its key count says', () => {
    expect(geoKeysFromDirectory(Uint16Array.from([1, 1, 0, 9, 1024, 0, 1, 2]))).toEqual({
      GTModelTypeGeoKey: 2,
    });
  });
});
