import type { CrsRef } from '../tiling/crs-ref.js';

/** The GeoKeys that say which CRS a file uses (names as in the GeoTIFF specification). */
export interface CrsGeoKeys {
  readonly GTModelTypeGeoKey?: number;
  readonly GTCitationGeoKey?: string;
  readonly GeographicTypeGeoKey?: number;
  readonly GeogCitationGeoKey?: string;
  readonly ProjectedCSTypeGeoKey?: number;
  readonly ProjCoordTransGeoKey?: number;
}

/** GeoTIFF's "user-defined" code: the CRS is spelled out in other keys instead of named. */
const USER_DEFINED = 32767;
const MODEL_PROJECTED = 1;
const MODEL_GEOGRAPHIC = 2;

/** Names of the GeoTIFF coordinate transformation codes, for messages about user-defined CRSs. */
const TRANSFORMATIONS: Readonly<Record<number, string>> = {
  1: 'Transverse Mercator',
  7: 'Mercator',
  8: 'Lambert Conformal Conic 2SP',
  9: 'Lambert Conformal Conic 1SP',
  10: 'Lambert Azimuthal Equal Area',
  11: 'Albers Equal Area',
  15: 'Polar Stereographic',
  17: 'Equirectangular',
};

const isCode = (v: unknown): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 && v < USER_DEFINED;
const clean = (s: unknown) =>
  typeof s === 'string' ? s.replace(/\|+$/, '').replace(/\|/g, '; ').trim() || undefined : undefined;

/**
 * The CRS named by GeoKeys: the projected CRS code when the model is projected, else the
 * geographic one; `user-defined` when the keys describe a CRS without naming it; undefined
 * when the file has no CRS keys at all.
 */
export function crsFromGeoKeys(keys: CrsGeoKeys | null | undefined): CrsRef | undefined {
  if (!keys) return undefined;
  const model = keys.GTModelTypeGeoKey;
  const projected = keys.ProjectedCSTypeGeoKey;
  const geographic = keys.GeographicTypeGeoKey;
  if (model !== MODEL_GEOGRAPHIC && isCode(projected)) {
    return { kind: 'epsg', code: projected, citation: clean(keys.GTCitationGeoKey) };
  }
  if (model === MODEL_PROJECTED || projected === USER_DEFINED) {
    const t = keys.ProjCoordTransGeoKey;
    const how = t === undefined ? '' : `, ${TRANSFORMATIONS[t] ?? `ProjCoordTransGeoKey ${t}`}`;
    return {
      kind: 'user-defined',
      description: `${clean(keys.GTCitationGeoKey) ?? 'projected'}: ProjectedCSTypeGeoKey ${projected ?? 'absent'}${how}`,
    };
  }
  if (isCode(geographic)) {
    return {
      kind: 'epsg',
      code: geographic,
      citation: clean(keys.GeogCitationGeoKey ?? keys.GTCitationGeoKey),
    };
  }
  if (model === MODEL_GEOGRAPHIC || geographic === USER_DEFINED) {
    return {
      kind: 'user-defined',
      description: `${clean(keys.GeogCitationGeoKey) ?? 'geographic'}: GeographicTypeGeoKey ${geographic ?? 'absent'}`,
    };
  }
  return undefined;
}
