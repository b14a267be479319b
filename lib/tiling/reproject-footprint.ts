import proj4 from 'proj4';
import { type Bbox, bboxOfPoints, type Point } from './bbox.js';
import type { ResolvedCrs } from './resolve-crs.js';
import { MAX_LATITUDE, ORIGIN_SHIFT } from './web-mercator.js';

/** Points per edge, corners included: as GDAL densifies an extent before transforming it. */
export const DEFAULT_POINTS_PER_EDGE = 21;

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

/**
 * The EPSG:3857 bounding box of a footprint ring given in the source CRS: edges are densified
 * (straight lines in one CRS are curves in another), each point goes through proj4 to WGS 84,
 * is clamped to the Mercator limits (±85.0511°, ±180°), then goes through proj4 to EPSG:3857.
 * Points proj4 cannot transform (outside the projection's domain) are dropped. Undefined when
 * no point survives. A footprint that crosses the antimeridian is not split in two: its box
 * spans the whole width of the world, which the tile cap then reports.
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
  const toWgs84 = proj4(crs.definition, 'EPSG:4326');
  const toMercator = proj4('EPSG:4326', 'EPSG:3857');
  const projected: Point[] = [];
  for (const point of densifyRing(ring, pointsPerEdge)) {
    try {
      const [lon, lat] = toWgs84.forward([point[0], point[1]]);
      if (!Number.isFinite(lon) || !Number.isFinite(lat)) continue;
      const [x, y] = toMercator.forward([clamp(lon!, -180, 180), clamp(lat!, -MAX_LATITUDE, MAX_LATITUDE)]);
      projected.push([x!, y!]);
    } catch {
      // outside the source projection's domain: not part of any footprint we can tile
    }
  }
  return bboxOfPoints(projected);
}
