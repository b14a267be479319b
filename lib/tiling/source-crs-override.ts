import type { CrsRef } from './crs-ref.js';
import { UnsupportedCrsError } from './errors.js';

const EPSG = /^\s*EPSG:(\d+)\s*$/i;

/**
 * A user's source CRS (`--s-srs`, a sidecar's `sourceCrs`) as the CRS the file would have said:
 * `EPSG:<code>`, a PROJ string (`+proj=…`) or a WKT, as `gdalwarp -s_srs` and PDAL's
 * `override_srs` take them. It replaces what the file says, which may be nothing (many LAS files
 * carry no CRS) or wrong (a CRS code in the linear-unit GeoKey).
 */
export function sourceCrsOverride(text: string): CrsRef {
  const epsg = EPSG.exec(text);
  if (epsg) return { kind: 'epsg', code: Number(epsg[1]) };
  const trimmed = text.trim();
  if (trimmed.startsWith('+')) return { kind: 'proj', proj: trimmed };
  if (/^[A-Z_0-9]+\s*[[(]/i.test(trimmed)) return { kind: 'wkt', wkt: trimmed };
  throw new UnsupportedCrsError(
    `the source CRS override "${text}" is neither EPSG:<code>, a PROJ string (+proj=…) nor a WKT`,
  );
}

/** The override as GDAL (`-s_srs`, a layer SRS) and PDAL (`override_srs`) take it: as given. */
export function overrideSrs(text: string): string {
  const epsg = EPSG.exec(text);
  return epsg ? `EPSG:${epsg[1]}` : text.trim();
}
