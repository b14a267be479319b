import type { TilePixels } from './raster-pixels.js';

export interface ApproximationFigures {
  /** Pixels compared (data in the exact tile and all around it). */
  readonly compared: number;
  /** Pixels that differ from the exact tile by more than a shift of `maxShiftPx` could make. */
  readonly beyond: number;
  /** Pixels with data in one tile and nodata in the other, not next to the data's edge. */
  readonly nodataAway: number;
  /** The largest difference against the exact tile, for the log. */
  readonly maxDifference: number;
}

/**
 * How a tile warped with GDAL's approximate transformer compares with the exact one. The
 * approximation moves each sample by at most the error threshold, `maxShiftPx` in this tile's
 * pixels, so a pixel may differ from the exact tile by at most that fraction of its steepest step
 * to a neighbour (plus rounding); whether a pixel at the edge of the data has data may flip. The
 * tile's own border is left out: its neighbours beyond the tile are not known here.
 * A wrong warp (a misplaced grid, another CRS) puts most pixels beyond that. A very few may be
 * beyond it rightly: where the source's own nodata pixels fall inside the resampling kernel
 * (value 0 inside RGB.byte.tif's imagery), a shift changes which source pixels weigh in.
 */
export function approximationFigures(
  approx: TilePixels,
  exact: TilePixels,
  maxShiftPx: number,
): ApproximationFigures {
  const { width, height } = exact;
  const isNodata = (v: number) => Number.isNaN(v) || v === exact.nodata;
  let compared = 0;
  let beyond = 0;
  let nodataAway = 0;
  let maxDifference = 0;
  for (const [b, band] of exact.bands.entries()) {
    const other = approx.bands[b]!;
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        const e = band[y * width + x]!;
        const a = other[y * width + x]!;
        let step = 0;
        // On the tile's border the neighbours beyond it (data or its edge) are not known.
        let edge = x === 0 || y === 0 || x === width - 1 || y === height - 1;
        for (let dy = -1; dy <= 1; dy += 1) {
          for (let dx = -1; dx <= 1; dx += 1) {
            const [nx, ny] = [x + dx, y + dy];
            if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
            const v = band[ny * width + nx]!;
            if (isNodata(v)) edge = true;
            else if (!isNodata(e)) step = Math.max(step, Math.abs(v - e));
          }
        }
        if (isNodata(e) !== isNodata(a)) {
          if (!edge) nodataAway += 1;
          continue;
        }
        if (isNodata(e) || edge) continue;
        compared += 1;
        const difference = Math.abs(a - e);
        maxDifference = Math.max(maxDifference, difference);
        // Integer types round to the nearest unit: one unit either way is rounding, not a shift.
        const slack = exact.sampleFormat === 3 ? 1e-3 * Math.max(1, Math.abs(e)) : 1;
        if (difference > maxShiftPx * step + slack) beyond += 1;
      }
    }
  }
  return { compared, beyond, nodataAway, maxDifference };
}
