import type { CrsGeoKeys } from './geokeys-crs.js';

/** GeoKey ids and names of the GeoTIFF 1.0 specification (the CRS keys; vertical ones ignored). */
const KEY_NAMES: Readonly<Record<number, string>> = {
  1024: 'GTModelTypeGeoKey',
  1025: 'GTRasterTypeGeoKey',
  1026: 'GTCitationGeoKey',
  2048: 'GeographicTypeGeoKey',
  2049: 'GeogCitationGeoKey',
  2050: 'GeogGeodeticDatumGeoKey',
  2051: 'GeogPrimeMeridianGeoKey',
  2052: 'GeogLinearUnitsGeoKey',
  2053: 'GeogLinearUnitSizeGeoKey',
  2054: 'GeogAngularUnitsGeoKey',
  2055: 'GeogAngularUnitSizeGeoKey',
  2056: 'GeogEllipsoidGeoKey',
  2057: 'GeogSemiMajorAxisGeoKey',
  2058: 'GeogSemiMinorAxisGeoKey',
  2059: 'GeogInvFlatteningGeoKey',
  2061: 'GeogPrimeMeridianLongGeoKey',
  2062: 'GeogTOWGS84GeoKey',
  3072: 'ProjectedCSTypeGeoKey',
  3073: 'PCSCitationGeoKey',
  3074: 'ProjectionGeoKey',
  3075: 'ProjCoordTransGeoKey',
  3076: 'ProjLinearUnitsGeoKey',
  3077: 'ProjLinearUnitSizeGeoKey',
  3078: 'ProjStdParallel1GeoKey',
  3079: 'ProjStdParallel2GeoKey',
  3080: 'ProjNatOriginLongGeoKey',
  3081: 'ProjNatOriginLatGeoKey',
  3082: 'ProjFalseEastingGeoKey',
  3083: 'ProjFalseNorthingGeoKey',
  3084: 'ProjFalseOriginLongGeoKey',
  3085: 'ProjFalseOriginLatGeoKey',
  3086: 'ProjFalseOriginEastingGeoKey',
  3087: 'ProjFalseOriginNorthingGeoKey',
  3088: 'ProjCenterLongGeoKey',
  3089: 'ProjCenterLatGeoKey',
  3090: 'ProjCenterEastingGeoKey',
  3091: 'ProjCenterNorthingGeoKey',
  3092: 'ProjScaleAtNatOriginGeoKey',
  3093: 'ProjScaleAtCenterGeoKey',
  3094: 'ProjAzimuthAngleGeoKey',
  3095: 'ProjStraightVertPoleLongGeoKey',
  3096: 'ProjRectifiedGridAngleGeoKey',
};
const GEO_DOUBLE_PARAMS_TAG = 34736;
const GEO_ASCII_PARAMS_TAG = 34737;

/**
 * The CRS keys of a raw GeoKeyDirectory (the SHORT array of TIFF tag 34735, which LAS stores in
 * its LASF_Projection 34735 VLR), with values from GeoDoubleParams (34736) and GeoAsciiParams
 * (34737) where the directory points into them.
 */
export function geoKeysFromDirectory(
  directory: Uint16Array,
  asciiParams?: string,
  doubleParams?: Float64Array,
): CrsGeoKeys {
  const keys: Record<string, number | string | number[]> = {};
  const count = directory[3] ?? 0;
  for (let i = 0; i < count; i += 1) {
    const at = 4 + i * 4;
    if (at + 3 >= directory.length) break;
    const name = KEY_NAMES[directory[at]!];
    if (!name) continue;
    const location = directory[at + 1]!;
    const valueCount = directory[at + 2]!;
    const valueOffset = directory[at + 3]!;
    if (location === 0) keys[name] = valueOffset;
    else if (location === GEO_ASCII_PARAMS_TAG && asciiParams !== undefined) {
      keys[name] = asciiParams.slice(valueOffset, valueOffset + valueCount).replace(/[|\0]+$/, '');
    } else if (location === GEO_DOUBLE_PARAMS_TAG && doubleParams !== undefined) {
      const values = Array.from(doubleParams.subarray(valueOffset, valueOffset + valueCount));
      if (values.length === valueCount) keys[name] = valueCount === 1 ? values[0]! : values;
    }
  }
  return keys;
}
