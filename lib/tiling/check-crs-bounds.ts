import type { Point } from './bbox.js';
import { bboxOfPoints } from './bbox.js';
import { BoundsOutsideCrsError } from './errors.js';
import type { ResolvedCrs } from './resolve-crs.js';

/**
 * Slack around the geographic limits: GDAL writes global rasters whose pixel-is-point grid ends
 * half a pixel past ±90°/±180°; a coarse global grid's half pixel is well under a degree.
 */
const SLACK_DEGREES = 1;

const fmt = (n: number) => String(Number(n.toPrecision(10)));

/**
 * Refuses a footprint that cannot be in its declared CRS: in a geographic CRS, latitudes beyond
 * ±90° or longitudes outside both −180…180° and 0…360° (the two conventions files use), or a
 * span of more than 360°. Such a header (a LAS file declaring EPSG:4326 over x 1…226) would
 * otherwise be planned as a piece of the whole world.
 */
export function checkCrsBounds(ring: readonly Point[], crs: ResolvedCrs, where: string): void {
  if (!crs.geographic) return;
  const unit = crs.degreesPerUnit ?? 1;
  const box = bboxOfPoints(ring.map(([x, y]) => [x * unit, y * unit] as Point));
  if (!box) return;
  const [minX, minY, maxX, maxY] = box;
  const latOk = minY >= -90 - SLACK_DEGREES && maxY <= 90 + SLACK_DEGREES;
  const lonOk =
    maxX - minX <= 360 + 2 * SLACK_DEGREES &&
    ((minX >= -180 - SLACK_DEGREES && maxX <= 180 + SLACK_DEGREES) ||
      (minX >= -SLACK_DEGREES && maxX <= 360 + SLACK_DEGREES));
  if (latOk && lonOk) return;
  const range = (limit: number) => fmt(limit / unit);
  throw new BoundsOutsideCrsError(
    `${where}: its bounds (x ${fmt(minX / unit)} to ${fmt(maxX / unit)}, y ${fmt(minY / unit)} to ${fmt(maxY / unit)}) ` +
      `cannot be in its declared CRS ${crs.label}, whose coordinates are ${unit === 1 ? 'degrees' : 'units'} of longitude ` +
      `(−${range(180)} to ${range(180)}) and latitude (−${range(90)} to ${range(90)}); the file declares the wrong CRS`,
  );
}
