import proj4 from 'proj4';
import { type Bbox, bboxOfPoints, type Point } from './bbox.js';
import { crsConverter } from './crs-converter.js';
import { insideRing, ringToLonLat, toLonLat, unwrapLongitudes } from './footprint-lonlat.js';
import type { ResolvedCrs } from './resolve-crs.js';
import { MAX_LATITUDE, ORIGIN_SHIFT } from './web-mercator.js';

/** Points per edge, corners included: as GDAL densifies an extent before transforming it. */
export const DEFAULT_POINTS_PER_EDGE = 21;
/** Points per edge when part of the ring is off the projection's domain: the limb is curved. */
const LIMB_POINTS_PER_EDGE = 257;

/** The ring with `pointsPerEdge` evenly spaced points along each edge (corners once each). */
export function densifyRing(ring: readonly Point[], pointsPerEdge = DEFAULT_POINTS_PER_EDGE): Point[] {
  const steps = Math.max(1, Math.floor(pointsPerEdge) - 1);
  const out: Point[] = [];
  for (let i = 0; i < ring.length; i += 1) {
    const [x0, y0] = ring[i]!;
    const [x1, y1] = ring[(i + 1) % ring.length]!;
    for (let s = 0; s < steps; s += 1) out.push([x0 + ((x1 - x0) * s) / steps, y0 + ((y1 - y0) * s) / steps]);
  }
  return out;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), hi);
const mercatorY = (lat: number) =>
  proj4('EPSG:4326', 'EPSG:3857', [0, clamp(lat, -MAX_LATITUDE, MAX_LATITUDE)])[1]!;
const mercatorX = (lon: number) => (lon / 180) * ORIGIN_SHIFT;

/**
 * The EPSG:3857 bounding box of a footprint ring given in the source CRS, as GDAL's reprojection
 * sees it (docs/architecture.md, "The flow of a run", Split): edges are densified (straight lines in one CRS are
 * curves in another) and each point goes through proj4 to longitude/latitude;
 * - a point off the projection's domain (the corners of a geostationary full disk) is replaced
 *   by the limb on the way to it from the ring's centre: the footprint is the visible Earth;
 * - longitudes are unwrapped along the ring, so a source crossing the antimeridian gets a box
 *   whose x reaches past ±ORIGIN_SHIFT (tileRanges() wraps it onto both sides of the map);
 * - a ring around a pole (polar stereographic) spans every longitude and reaches that pole;
 * - latitudes are clamped to Web Mercator's ±85.0511°.
 * Undefined when no point of the ring projects.
 */
export function reprojectFootprint(
  ring: readonly Point[],
  crs: ResolvedCrs,
  pointsPerEdge = DEFAULT_POINTS_PER_EDGE,
): Bbox | undefined {
  if (crs.webMercator) {
    // Already in the target CRS: clamp only, so a grid-aligned source stays exactly aligned.
    return bboxOfPoints(
      ring.map(
        ([x, y]) => [clamp(x, -ORIGIN_SHIFT, ORIGIN_SHIFT), clamp(y, -ORIGIN_SHIFT, ORIGIN_SHIFT)] as Point,
      ),
    );
  }
  const toWgs84 = crsConverter(crs);
  const centre = ring.reduce<Point>((c, p) => [c[0] + p[0] / ring.length, c[1] + p[1] / ring.length], [0, 0]);
  let dense = densifyRing(ring, pointsPerEdge);
  if (dense.some((p) => toLonLat(toWgs84, p) === undefined)) dense = densifyRing(ring, LIMB_POINTS_PER_EDGE);
  const points = ringToLonLat(toWgs84, dense, centre);
  if (points.length === 0) return undefined;

  const { lons, encirclesPole } = unwrapLongitudes(points);
  let minLat = Math.min(...points.map((p) => p[1]));
  let maxLat = Math.max(...points.map((p) => p[1]));
  let minLon = Math.min(...lons);
  let maxLon = Math.max(...lons);
  const poleInside = (lat: number) => {
    try {
      const pole = toWgs84.inverse([0, lat]);
      return Number.isFinite(pole[0]) && Number.isFinite(pole[1]) && insideRing(ring, [pole[0]!, pole[1]!]);
    } catch {
      return false;
    }
  };
  const north = poleInside(90);
  const south = poleInside(-90);
  if (north) maxLat = 90;
  if (south) minLat = -90;
  if (encirclesPole || north || south || maxLon - minLon >= 360) {
    minLon = -180;
    maxLon = 180;
  }
  return [mercatorX(minLon), mercatorY(minLat), mercatorX(maxLon), mercatorY(maxLat)];
}
