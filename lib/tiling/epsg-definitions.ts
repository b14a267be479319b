/**
 * proj4 definitions for the EPSG codes geohub meets in GeoTIFF and LAS GeoKeys. proj4 knows only
 * a handful of codes by itself (and has no grid files), so the common families are spelled out
 * here rather than shipping the whole EPSG database to a Lambda.
 *
 * NAD27 uses the CONUS mean shift to WGS 84 (EPSG transformation 1173, about 10 m accuracy)
 * because proj4 has no NADCON grids: without it a NAD27 footprint lands 100 m off, with it within
 * a metre of GDAL for byte.tif. That is ample for choosing which tiles cover a source.
 */

const WEB_MERCATOR =
  '+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +wktext +no_defs';
const NAD27 = '+ellps=clrk66 +towgs84=-8,160,176,0,0,0,0';
const GRS80_AS_WGS84 = '+ellps=GRS80 +towgs84=0,0,0,0,0,0,0';

/** Codes that are Web Mercator under any of its historical names. */
export const WEB_MERCATOR_CODES: ReadonlySet<number> = new Set([3857, 900913, 3785, 102100, 102113]);

const FIXED: ReadonlyMap<number, string> = new Map([
  [4326, '+proj=longlat +datum=WGS84 +no_defs'],
  [4269, '+proj=longlat +datum=NAD83 +no_defs'],
  [4267, `+proj=longlat ${NAD27} +no_defs`],
  [4258, `+proj=longlat ${GRS80_AS_WGS84} +no_defs`],
  ...[...WEB_MERCATOR_CODES].map((code) => [code, WEB_MERCATOR] as [number, string]),
]);

/** UTM families: code range, first zone number, and the datum part of the definition. */
const UTM_FAMILIES: readonly {
  from: number;
  to: number;
  firstZone: number;
  datum: string;
  south?: boolean;
}[] = [
  { from: 32601, to: 32660, firstZone: 1, datum: '+datum=WGS84' },
  { from: 32701, to: 32760, firstZone: 1, datum: '+datum=WGS84', south: true },
  { from: 26701, to: 26722, firstZone: 1, datum: NAD27 },
  { from: 26901, to: 26923, firstZone: 1, datum: '+datum=NAD83' },
  { from: 25828, to: 25838, firstZone: 28, datum: GRS80_AS_WGS84 },
];

/** The proj4 definition of an EPSG code, or undefined when geohub has none. */
export function epsgDefinition(code: number): string | undefined {
  const fixed = FIXED.get(code);
  if (fixed) return fixed;
  for (const family of UTM_FAMILIES) {
    if (code >= family.from && code <= family.to) {
      const zone = family.firstZone + (code - family.from);
      return `+proj=utm +zone=${zone}${family.south ? ' +south' : ''} ${family.datum} +units=m +no_defs`;
    }
  }
  return undefined;
}
