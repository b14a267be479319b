import { wktParameter as parameter } from './wkt-parameter.js';

/**
 * ESRI's WKT for a geostationary view (PROJECTION["Geostationary_Satellite"]), which GDAL
 * writes into GeoTIFF citations as an "ESRI PE String" and which proj4's WKT reader takes for
 * an unknown projection. The same parameters as PROJ reads them: Longitude_Of_Center, Height
 * above the ellipsoid, Option 0 = sweep angle axis y (GOES uses x, written Option 1).
 */
const GEOS = /PROJECTION\s*\[\s*"Geostationary_Satellite"\s*\]/i;

/** The proj4 definition of an ESRI geostationary WKT, or undefined for any other WKT. */
export function esriGeostationary(wkt: string): string | undefined {
  if (!GEOS.test(wkt)) return undefined;
  const spheroid = /SPHEROID\s*\[\s*"[^"]*"\s*,\s*([-+0-9.eE]+)\s*,\s*([-+0-9.eE]+)/i.exec(wkt);
  const a = Number(spheroid?.[1] ?? 6378137);
  const rf = Number(spheroid?.[2] ?? 298.257223563);
  const ellipsoid = rf > 0 ? `+a=${a} +rf=${rf}` : `+a=${a} +b=${a}`;
  const lon = parameter(wkt, 'Longitude_Of_Center') ?? parameter(wkt, 'central_meridian') ?? 0;
  const height = parameter(wkt, 'Height') ?? parameter(wkt, 'satellite_height');
  if (height === undefined) return undefined;
  const sweep = parameter(wkt, 'Option') === 1 ? 'x' : 'y';
  const x0 = parameter(wkt, 'False_Easting') ?? 0;
  const y0 = parameter(wkt, 'False_Northing') ?? 0;
  return `+proj=geos +lon_0=${lon} +h=${height} +sweep=${sweep} +x_0=${x0} +y_0=${y0} ${ellipsoid} +units=m +no_defs`;
}
