import { crsConverter } from '../../lib/tiling/crs-converter.js';
import { UnsupportedCrsError } from '../../lib/tiling/errors.js';
import { resolveCrs } from '../../lib/tiling/resolve-crs.js';
import { type GdalPoint, gdalPoints, metresBetween } from './crs-distances.js';

/** One code's outcome: geohub's distance from GDAL, or the side that failed and why. */
export type Distance =
  | { readonly code: number; readonly metres: number }
  | { readonly code: number; readonly failed: 'gdal' | 'geohub' | 'refused'; readonly why: string };

/** Where geohub puts GDAL's point of a code, and how far from where GDAL puts it. */
export function distanceOf(point: GdalPoint): Distance {
  const { code } = point;
  if ('error' in point) return { code, failed: 'gdal', why: point.error };
  try {
    const [lon, lat] = crsConverter(resolveCrs({ kind: 'epsg', code })).forward([point.x, point.y]);
    if (!Number.isFinite(lon) || !Number.isFinite(lat))
      return { code, failed: 'geohub', why: `${lon}, ${lat}` };
    // Longitudes may differ by a turn (0…360 against −180…180): the distance is the same.
    return { code, metres: metresBetween([lon!, lat!], [point.lon, point.lat]) };
  } catch (error) {
    const why = (error as Error).message;
    return { code, failed: error instanceof UnsupportedCrsError ? 'refused' : 'geohub', why };
  }
}

/**
 * Every code's distance from GDAL: through each geographic CRS's transformation first (fast),
 * then, for the codes that differ by more than `bound` or that GDAL failed there, through each
 * CRS's own transformation, as gdalwarp makes it (test/support/crs-distances.py).
 */
export async function measureDistances(
  codes: readonly number[],
  bound: (code: number) => number,
  signal?: AbortSignal,
): Promise<{ readonly proj: string; readonly epsg: string; readonly distances: Distance[] }> {
  const fast = await gdalPoints(codes, { signal });
  const first = codes.map((code) => distanceOf(fast.points.get(code)!));
  const again = first
    .filter((d) => ('metres' in d ? d.metres > bound(d.code) : d.failed === 'gdal'))
    .map((d) => d.code);
  const full = again.length > 0 ? (await gdalPoints(again, { full: true, signal })).points : new Map();
  const distances = first.map((d) => (full.has(d.code) ? distanceOf(full.get(d.code)!) : d));
  return { proj: fast.proj, epsg: fast.epsg, distances };
}

export const BUCKETS: readonly (readonly [string, number])[] = [
  ['≤ 1 cm', 0.01],
  ['1 cm – 1 m', 1],
  ['1 – 10 m', 10],
  ['10 – 100 m', 100],
  ['100 m – 1 km', 1000],
  ['> 1 km', Number.POSITIVE_INFINITY],
];

/** The distribution as docs/crs.md tables it: one row per bucket, then the failures by side. */
export function distributionTable(distances: readonly Distance[]): string {
  const rows = BUCKETS.map(([label, upTo], i) => {
    const from = i === 0 ? -1 : BUCKETS[i - 1]![1];
    const n = distances.filter((d) => 'metres' in d && d.metres > from && d.metres <= upTo).length;
    return `| ${label} | ${n.toLocaleString('en-US')} |`;
  });
  const failed = (side: string) => distances.filter((d) => 'failed' in d && d.failed === side).length;
  return [
    '| distance from GDAL | codes |',
    '| --- | --- |',
    ...rows,
    `| refused by geohub (a method proj4 lacks) | ${failed('refused')} |`,
    `| GDAL fails | ${failed('gdal')} |`,
    `| geohub fails | ${failed('geohub')} |`,
    `| compared | ${distances.length.toLocaleString('en-US')} |`,
  ].join('\n');
}
