import type { CrsGeoKeys } from './geokeys-crs.js';

const KEY_NAMES: Readonly<Record<number, keyof CrsGeoKeys>> = {
  1024: 'GTModelTypeGeoKey',
  1026: 'GTCitationGeoKey',
  2048: 'GeographicTypeGeoKey',
  2049: 'GeogCitationGeoKey',
  3072: 'ProjectedCSTypeGeoKey',
  3075: 'ProjCoordTransGeoKey',
};
const GEO_ASCII_PARAMS_TAG = 34737;

/**
 * The CRS keys of a raw GeoKeyDirectory (the SHORT array of TIFF tag 34735, which LAS stores in
 * its LASF_Projection 34735 VLR), with ASCII values taken from the GeoAsciiParams text (34737).
 * Keys stored in GeoDoubleParams are not needed to name a CRS and are skipped.
 */
export function geoKeysFromDirectory(directory: Uint16Array, asciiParams?: string): CrsGeoKeys {
  const keys: Record<string, number | string> = {};
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
    }
  }
  return keys as CrsGeoKeys;
}
