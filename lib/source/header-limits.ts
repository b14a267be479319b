import { ImplausibleHeaderError } from './errors.js';

/**
 * Bounds no real source exceeds. They stop a corrupt or hostile header from turning into a
 * billion-tile plan or an arithmetic overflow further down: 10^7 pixels a side is a 10 m raster
 * of the whole planet; 10^12 pixels is a terabyte per byte-band.
 */
export const MAX_RASTER_SIDE = 10_000_000;
export const MAX_RASTER_PIXELS = 1e12;
export const MAX_RASTER_BANDS = 10_000;
/** Ten times the largest public national LiDAR tiles, still far below 2^53. */
export const MAX_POINT_COUNT = 1e12;

const fmt = (n: number) => n.toLocaleString('en-US');

export function checkRasterSize(where: string, width: number, height: number, bands: number): void {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new ImplausibleHeaderError(`${where}: the header claims ${width} × ${height} pixels`);
  }
  if (width > MAX_RASTER_SIDE || height > MAX_RASTER_SIDE || width * height > MAX_RASTER_PIXELS) {
    throw new ImplausibleHeaderError(
      `${where}: the header claims ${fmt(width)} × ${fmt(height)} pixels; geohub accepts at most ` +
        `${fmt(MAX_RASTER_SIDE)} pixels a side and ${fmt(MAX_RASTER_PIXELS)} pixels in all`,
    );
  }
  if (!Number.isInteger(bands) || bands < 1 || bands > MAX_RASTER_BANDS) {
    throw new ImplausibleHeaderError(
      `${where}: the header claims ${bands} bands per pixel (geohub accepts 1 to ${fmt(MAX_RASTER_BANDS)})`,
    );
  }
}

export function checkPointCloud(
  where: string,
  pointCount: number,
  min: readonly number[],
  max: readonly number[],
  scale: readonly number[],
): void {
  if (!Number.isSafeInteger(pointCount) || pointCount < 0 || pointCount > MAX_POINT_COUNT) {
    throw new ImplausibleHeaderError(
      `${where}: the header claims ${fmt(pointCount)} points (geohub accepts up to ${fmt(MAX_POINT_COUNT)})`,
    );
  }
  const finite = [...min, ...max].every(Number.isFinite);
  if (!finite || min.some((v, i) => v > max[i]!)) {
    throw new ImplausibleHeaderError(
      `${where}: the header bounds are not a box (min ${min.join(', ')}; max ${max.join(', ')})`,
    );
  }
  if (!scale.every((s) => Number.isFinite(s) && s > 0)) {
    throw new ImplausibleHeaderError(
      `${where}: the header scale factors ${scale.join(', ')} are not positive`,
    );
  }
}
