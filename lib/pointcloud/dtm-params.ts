import { z } from 'zod';
import { zodProblems } from '../model/zod-problems.js';
import { InvalidOperationParamsError } from '../operations/errors.js';

/** Default search radius, in output pixels: fills the gaps of a ground class (under trees, small roofs). */
export const DEFAULT_RADIUS_PIXELS = 8;
/** …and at least this many EPSG:3857 metres, so deep zooms do not outrun the ground point spacing. */
export const MIN_DEFAULT_RADIUS_M = 10;
/** Largest radius used, in output pixels: it bounds the points read around a tile. */
export const MAX_RADIUS_PIXELS = 64;
/** Inverse-distance weighting exponent, as gdal_grid's invdist and PDAL's idw call it. */
export const DEFAULT_POWER = 2;

/**
 * The parameters pointcloud-dtm reads. Others may be present (the zoom belongs to the split) and
 * are ignored. A `resolution` is one of them: the XYZ tile fixes the grid (256 pixels across the
 * tile), so the pixel size follows from the zoom and cannot be set separately.
 */
const schema = z.looseObject({
  /** Search radius in EPSG:3857 metres. */
  radius: z.number().positive().finite().optional(),
  power: z.number().min(0).max(8).optional(),
});

export interface DtmParams {
  /** Search radius in EPSG:3857 metres, already clamped to MAX_RADIUS_PIXELS. */
  readonly radius: number;
  readonly power: number;
}

/**
 * The effective interpolation parameters for a tile whose pixels are `cell` metres. Parameters
 * are validated upstream; this check keeps a bad value from reaching a tool's arguments anyway.
 */
export function dtmParams(params: Readonly<Record<string, unknown>>, cell: number): DtmParams {
  const parsed = schema.safeParse(params ?? {});
  if (!parsed.success) {
    throw new InvalidOperationParamsError(
      `pointcloud-dtm parameters are not valid: ${zodProblems(parsed.error)}`,
      {
        cause: parsed.error,
      },
    );
  }
  const wanted = parsed.data.radius ?? Math.max(DEFAULT_RADIUS_PIXELS * cell, MIN_DEFAULT_RADIUS_M);
  return { radius: Math.min(wanted, MAX_RADIUS_PIXELS * cell), power: parsed.data.power ?? DEFAULT_POWER };
}
