import type { FileAxes } from './crs-axes.js';
import { UnsupportedCrsError } from './errors.js';
import { wktParameter } from './wkt-parameter.js';

const KROVAK = /PROJECTION\s*\[\s*"Krovak"\s*\]/i;

/**
 * The axes of an ESRI Krovak WKT, which says them with X_Scale, Y_Scale and XY_Plane_Rotation
 * instead of AXIS[] (proj4 reads neither): 1, 1, 0 is the classic S-JTSK / Krovak (southing,
 * westing: EPSG:5513, 8352, 2065), −1, 1, 90 is Krovak East North (EPSG:5514), as GDAL reads
 * them. Undefined for any other WKT; UnsupportedCrsError for another combination.
 */
export function esriKrovakAxes(wkt: string, label: string): FileAxes | undefined {
  if (!KROVAK.test(wkt) || /\bAXIS\s*\[/i.test(wkt)) return undefined;
  const x = wktParameter(wkt, 'X_Scale') ?? 1;
  const y = wktParameter(wkt, 'Y_Scale') ?? 1;
  const rotation = wktParameter(wkt, 'XY_Plane_Rotation') ?? 0;
  if (x === 1 && y === 1 && rotation === 0) return 'sw';
  if (x === -1 && y === 1 && rotation === 90) return 'en';
  throw new UnsupportedCrsError(
    `${label} cannot be reprojected: its Krovak axes (X_Scale ${x}, Y_Scale ${y}, XY_Plane_Rotation ${rotation}) ` +
      'are neither southing/westing nor easting/northing',
  );
}
