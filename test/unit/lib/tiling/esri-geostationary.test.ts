import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { esriGeostationary } from '../../../../lib/tiling/esri-geostationary.js';

// The ESRI PE string GDAL 3.6 writes into a GeoTIFF for '+proj=geos +h=35785831 +lon_0=140.7 +ellps=WGS84'.
const HIMAWARI =
  'PROJCS["unknown",GEOGCS["GCS_unknown",DATUM["D_Unknown_based_on_WGS84_ellipsoid",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Geostationary_Satellite"],PARAMETER["False_Easting",0.0],PARAMETER["False_Northing",0.0],PARAMETER["Longitude_Of_Center",140.7],PARAMETER["Height",35785831.0],PARAMETER["Option",0.0],UNIT["Meter",1.0]]';

describe('esriGeostationary', () => {
  it('reads ESRI’s geostationary WKT as PROJ does (Option 0: sweep y)', () => {
    const definition = esriGeostationary(HIMAWARI)!;
    expect(definition).toBe(
      '+proj=geos +lon_0=140.7 +h=35785831 +sweep=y +x_0=0 +y_0=0 +a=6378137 +rf=298.257223563 +units=m +no_defs',
    );
    // The sub-satellite point is the origin.
    const [lon, lat] = proj4(definition, 'EPSG:4326', [0, 0]);
    expect(lon).toBeCloseTo(140.7, 9);
    expect(lat).toBeCloseTo(0, 9);
  });

  it('takes Option 1 as sweep x (GOES) and ignores any other WKT', () => {
    expect(esriGeostationary(HIMAWARI.replace('"Option",0.0', '"Option",1.0'))).toContain('+sweep=x');
    expect(esriGeostationary('PROJCS["x",PROJECTION["Transverse_Mercator"]]')).toBeUndefined();
  });
});
