import { execa } from 'execa';

const SCRIPT = new URL('./crs-distances.py', import.meta.url).pathname;
/** Debian's python3 has GDAL's bindings; a pyenv python3 first on PATH may not. */
const PYTHON = '/usr/bin/python3';

export type GdalPoint =
  | {
      readonly code: number;
      readonly x: number;
      readonly y: number;
      readonly lon: number;
      readonly lat: number;
    }
  | { readonly code: number; readonly error: string };

export interface GdalPoints {
  /** The installed PROJ's version and EPSG dataset version (proj.db's metadata). */
  readonly proj: string;
  readonly epsg: string;
  readonly points: ReadonlyMap<number, GdalPoint>;
}

/**
 * For each code, a point at the centre of the CRS's area of use in the CRS's file coordinates and
 * where GDAL puts it in WGS 84 (test/support/crs-distances.py), all in one Python process:
 * through each geographic CRS's transformation (fast), or with `full` each CRS's own (~0.1 s a code).
 */
export async function gdalPoints(
  codes: readonly number[],
  options: { readonly full?: boolean; readonly signal?: AbortSignal } = {},
): Promise<GdalPoints> {
  const { signal, full = false } = options;
  const { stdout } = await execa(PYTHON, [SCRIPT], {
    input: JSON.stringify({ codes, full }),
    cancelSignal: signal,
    maxBuffer: 64 * 1024 * 1024,
  });
  const [head, ...lines] = stdout.trim().split('\n');
  const { proj, epsg } = JSON.parse(head!) as { proj: string; epsg: string };
  const points = lines.map((line) => JSON.parse(line) as GdalPoint);
  return { proj, epsg, points: new Map(points.map((p) => [p.code, p])) };
}

/** Great-circle distance in metres between two longitude/latitude points (mean Earth radius). */
export function metresBetween([lon1, lat1]: readonly number[], [lon2, lat2]: readonly number[]): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((lat2! - lat1!) * rad) / 2) ** 2 +
    Math.cos(lat1! * rad) * Math.cos(lat2! * rad) * Math.sin(((lon2! - lon1!) * rad) / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}
