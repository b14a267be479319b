import type { Point } from './bbox.js';
import type { CrsConverter } from './crs-converter.js';

/** Bisection steps towards the limb: 2^-40 of the ray, far below a millimetre on Earth. */
const LIMB_STEPS = 40;

const finite = (p: readonly number[] | undefined): p is [number, number] =>
  p !== undefined && Number.isFinite(p[0]) && Number.isFinite(p[1]);

/** proj4's forward transform, undefined where the point is outside the projection's domain. */
export function toLonLat(converter: CrsConverter, point: Point): Point | undefined {
  try {
    const out = converter.forward(point);
    return finite(out) && Math.abs(out[1]) <= 90 + 1e-9 ? [out[0], out[1]] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The last point on the segment from `inside` (which projects) towards `outside` (which does
 * not) that still projects: where the segment meets the edge of the projection's domain, e.g.
 * the limb of the Earth in a geostationary view.
 */
function limbPoint(converter: CrsConverter, inside: Point, outside: Point): Point | undefined {
  let lo = 0;
  let hi = 1;
  let best: Point | undefined;
  for (let i = 0; i < LIMB_STEPS; i += 1) {
    const t = (lo + hi) / 2;
    const p = toLonLat(converter, [
      inside[0] + (outside[0] - inside[0]) * t,
      inside[1] + (outside[1] - inside[1]) * t,
    ]);
    if (p) {
      lo = t;
      best = p;
    } else hi = t;
  }
  return best;
}

/**
 * The densified ring in longitude/latitude, in ring order. A point outside the projection's
 * domain (off the Earth's disk in a geostationary view) is replaced by the limb: the last point
 * that projects on the way from the ring's centre to it. Points with no such limb are dropped.
 */
export function ringToLonLat(converter: CrsConverter, ring: readonly Point[], centre: Point): Point[] {
  const centreOk = toLonLat(converter, centre) !== undefined;
  const out: Point[] = [];
  for (const point of ring) {
    const p = toLonLat(converter, point) ?? (centreOk ? limbPoint(converter, centre, point) : undefined);
    if (p) out.push(p);
  }
  return out;
}

/**
 * Longitudes made continuous along the ring (a step of more than 180° is a crossing of the
 * antimeridian, undone by ±360°), then shifted so the span's middle lies in [-180°, 180°).
 * `encirclesPole` when the ring winds once around the globe (its longitudes do not close).
 */
export function unwrapLongitudes(points: readonly Point[]): { lons: number[]; encirclesPole: boolean } {
  const lons: number[] = [];
  let offset = 0;
  for (let i = 0; i < points.length; i += 1) {
    const lon = points[i]![0];
    if (i > 0) {
      const step = lon + offset - lons[i - 1]!;
      if (step > 180) offset -= 360;
      else if (step < -180) offset += 360;
    }
    lons.push(lon + offset);
  }
  let encirclesPole = false;
  if (lons.length > 1) {
    // Close the ring: back at its first point, the longitude must be where it started.
    let closing = offset;
    const step = points[0]![0] + closing - lons[lons.length - 1]!;
    if (step > 180) closing -= 360;
    else if (step < -180) closing += 360;
    encirclesPole = closing !== 0;
  }
  const min = Math.min(...lons);
  const max = Math.max(...lons);
  const shift = -360 * Math.floor(((min + max) / 2 + 180) / 360);
  return { lons: lons.map((l) => l + shift), encirclesPole };
}

/** Ray casting: is the point inside the ring (source coordinates)? */
export function insideRing(ring: readonly Point[], [x, y]: Point): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i, i += 1) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
