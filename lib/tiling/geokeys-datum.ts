import type { GeoKeys } from './crs-ref.js';
import { epsgEntry } from './epsg-database.js';
import { UnsupportedCrsError } from './errors.js';

const USER_DEFINED = 32767;
const isCode = (v: unknown): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 && v !== USER_DEFINED;
const num = (keys: GeoKeys, name: string): number | undefined => {
  const v = keys[name];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
};

/** Metres per unit of the EPSG linear unit codes GeoTIFF writers use. */
const METRES_PER_UNIT: Readonly<Record<number, number>> = {
  9001: 1,
  9002: 0.3048,
  9003: 1200 / 3937,
  9005: 0.3047972654,
  9014: 1.8288,
  9030: 1852,
  9031: 1.0000135965,
  9033: 20.1168402336805,
  9034: 0.201166195164,
  9035: 1609.34721869444,
  9036: 1000,
  9037: 0.9143917962,
  9038: 20.1166195164,
  9039: 0.201166195164,
  9040: 0.914398414616029,
  9041: 0.304799471538676,
  9042: 20.1167651215526,
  9043: 0.201167651215526,
  9050: 0.914398,
  9051: 0.304799333333333,
  9052: 20.1167824,
  9053: 0.201167824,
  9060: 0.9143992,
  9061: 0.3047997,
  9062: 20.1167824,
  9063: 0.201167824,
  9070: 0.3048007491,
  9080: 0.30479841,
  9081: 0.3047996,
  9084: 0.3047995102481,
  9085: 0.3047997333333,
  9086: 0.304799710181508,
  9087: 0.304797265,
  9093: 1609.344,
  9094: 0.3048006096012192,
  9095: 0.3048007491,
  9096: 0.9144,
  9097: 20.1168,
  9098: 0.201168,
  9099: 0.914398,
};

/** Degrees per unit of the EPSG angular unit codes (parameters are stored in the CRS's unit). */
const DEGREES_PER_UNIT: Readonly<Record<number, number>> = {
  9101: 180 / Math.PI,
  9102: 1,
  9103: 1 / 60,
  9104: 1 / 3600,
  9105: 0.9,
  9106: 0.9,
  9109: 180 / Math.PI / 1e6,
  9110: 1,
  9122: 1,
};

/** Metres per linear unit of a projected CRS's GeoKeys (ProjLinearUnitsGeoKey / …UnitSizeGeoKey). */
export function linearUnit(keys: GeoKeys): number {
  const code = num(keys, 'ProjLinearUnitsGeoKey');
  if (code === undefined) return 1;
  if (code === USER_DEFINED) return num(keys, 'ProjLinearUnitSizeGeoKey') ?? 1;
  const metres = METRES_PER_UNIT[code];
  if (metres === undefined)
    throw new UnsupportedCrsError(`the linear unit EPSG:${code} is not one geohub knows`);
  return metres;
}

/** Degrees per angular unit of the GeoKeys (GeogAngularUnitsGeoKey / …UnitSizeGeoKey, radians). */
export function angularUnit(keys: GeoKeys): number {
  const code = num(keys, 'GeogAngularUnitsGeoKey');
  if (code === undefined) return 1;
  if (code === USER_DEFINED) {
    const radians = num(keys, 'GeogAngularUnitSizeGeoKey');
    return radians ? (radians * 180) / Math.PI : 1;
  }
  return DEGREES_PER_UNIT[code] ?? 1;
}

/** The proj4 datum part of a geographic CRS's registry definition (+datum, +ellps, +towgs84, +pm). */
function datumOfGeographic(code: number): string | undefined {
  const entry = epsgEntry(code);
  if (!entry?.proj4 || !/\+proj=longlat\b/.test(entry.proj4)) return undefined;
  return entry.proj4
    .replace(/\+(proj=longlat|no_defs|type=crs|axis=\S+|units=\S+)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A datum code's definition through the geographic CRS that EPSG numbers after it (datum 6xxx,
 * CRS 4xxx: 6326 → 4326, 6277 → 4277), checked against that CRS's datum.
 */
function datumByCode(code: number): string | undefined {
  if (code < 6001 || code > 6999) return undefined;
  if (epsgEntry(code - 2000)?.datum !== code) return undefined;
  return datumOfGeographic(code - 2000);
}

/**
 * The proj4 datum part the GeoKeys describe, as GDAL reads them: a geographic CRS code names
 * the datum and its shift; otherwise the ellipsoid axes (which GDAL always writes), with the
 * prime meridian and any TOWGS84 key.
 */
export function datumDefinition(keys: GeoKeys): string {
  const geographic = keys.GeographicTypeGeoKey;
  if (isCode(geographic)) {
    const datum = datumOfGeographic(geographic);
    if (!datum) {
      throw new UnsupportedCrsError(
        `its geographic CRS EPSG:${geographic} is not a 2D CRS the EPSG registry defines`,
      );
    }
    return datum;
  }
  const datumCode = keys.GeogGeodeticDatumGeoKey;
  if (isCode(datumCode)) {
    const datum = datumByCode(datumCode);
    if (datum) return datum;
  }
  const parts: string[] = [];
  const a = num(keys, 'GeogSemiMajorAxisGeoKey');
  const rf = num(keys, 'GeogInvFlatteningGeoKey');
  const b = num(keys, 'GeogSemiMinorAxisGeoKey');
  const ellipsoid = keys.GeogEllipsoidGeoKey;
  if (a !== undefined && rf !== undefined && rf > 0) parts.push(`+a=${a} +rf=${rf}`);
  else if (a !== undefined && b !== undefined) parts.push(`+a=${a} +b=${b}`);
  else if (a !== undefined && (rf === 0 || rf === undefined)) parts.push(`+a=${a} +b=${a}`);
  else if (ellipsoid === 7030 || ellipsoid === undefined) parts.push('+ellps=WGS84');
  else if (ellipsoid === 7019) parts.push('+ellps=GRS80');
  else throw new UnsupportedCrsError(`its ellipsoid EPSG:${String(ellipsoid)} comes without axis lengths`);
  const towgs84 = keys.GeogTOWGS84GeoKey;
  if (Array.isArray(towgs84) && towgs84.length >= 3) parts.push(`+towgs84=${towgs84.join(',')}`);
  const pm = num(keys, 'GeogPrimeMeridianLongGeoKey');
  if (pm) parts.push(`+pm=${pm * angularUnit(keys)}`);
  return parts.join(' ');
}
