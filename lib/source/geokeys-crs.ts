import type { CrsRef, GeoKeys } from '../tiling/crs-ref.js';
import { transformationName } from '../tiling/geokeys-definition.js';

/** The GeoKeys of a file (names as in the GeoTIFF specification). */
export type CrsGeoKeys = GeoKeys;

/** GeoTIFF's "user-defined" code: the CRS is spelled out in other keys instead of named. */
const USER_DEFINED = 32767;
const MODEL_PROJECTED = 1;
const MODEL_GEOGRAPHIC = 2;
/** How GDAL and ArcGIS store a CRS GeoKeys cannot express (geostationary, …) in a citation. */
const ESRI_PE = /ESRI PE String = ((?:PROJCS|GEOGCS|PROJCRS|GEOGCRS)\[[\s\S]*\])/;

const isCode = (v: unknown): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 && v < USER_DEFINED;
const clean = (s: unknown) =>
  typeof s === 'string' ? s.replace(/\|+$/, '').replace(/\|/g, '; ').trim() || undefined : undefined;

function esriWkt(keys: GeoKeys): string | undefined {
  for (const name of ['PCSCitationGeoKey', 'GTCitationGeoKey', 'GeogCitationGeoKey']) {
    const value = keys[name];
    const match = typeof value === 'string' ? ESRI_PE.exec(value) : null;
    if (match) return match[1]!.replace(/\|+$/, '');
  }
  return undefined;
}

/**
 * The CRS named by GeoKeys: the projected CRS code when the model is projected, else the
 * geographic one; an ESRI PE string (WKT) when a citation carries one; `user-defined` with the
 * keys themselves when they describe a CRS without naming it; undefined when the file has no
 * CRS keys at all.
 */
export function crsFromGeoKeys(keys: CrsGeoKeys | null | undefined): CrsRef | undefined {
  if (!keys) return undefined;
  const model = keys.GTModelTypeGeoKey;
  const projected = keys.ProjectedCSTypeGeoKey;
  const geographic = keys.GeographicTypeGeoKey;
  if (model !== MODEL_GEOGRAPHIC && isCode(projected)) {
    return {
      kind: 'epsg',
      code: projected,
      citation: clean(keys.GTCitationGeoKey ?? keys.PCSCitationGeoKey),
    };
  }
  const wkt = esriWkt(keys);
  if (wkt) return { kind: 'wkt', wkt };
  if (model === MODEL_PROJECTED || projected === USER_DEFINED) {
    const t = keys.ProjCoordTransGeoKey;
    const how = t === undefined ? '' : `, ${transformationName(t) ?? `ProjCoordTransGeoKey ${t}`}`;
    return {
      kind: 'user-defined',
      description: `${clean(keys.GTCitationGeoKey) ?? 'projected'}: ProjectedCSTypeGeoKey ${projected ?? 'absent'}${how}`,
      keys,
    };
  }
  if (isCode(geographic)) {
    return {
      kind: 'epsg',
      code: geographic,
      citation: clean(keys.GeogCitationGeoKey ?? keys.GTCitationGeoKey),
    };
  }
  if (model === MODEL_GEOGRAPHIC || keys.GeographicTypeGeoKey === USER_DEFINED) {
    return {
      kind: 'user-defined',
      description: `${clean(keys.GeogCitationGeoKey) ?? 'geographic'}: GeographicTypeGeoKey ${geographic ?? 'absent'}`,
      keys,
    };
  }
  return undefined;
}
