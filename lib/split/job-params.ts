import { createHash } from 'node:crypto';
import { z } from 'zod';
import { OPERATION_NAMES, type OperationName } from '../model/run.js';
import { TILE_FORMATS } from '../model/tile-format.js';
import { zodProblems } from '../model/zod-problems.js';
import { COLORMAP_NAMES, normaliseDisplay, type SourceValues } from './display-params.js';
import { InvalidJobParamsError } from './errors.js';
import { MAX_JOB_ZOOM, parseZoomRange, type ZoomRange } from './zoom-range.js';

/**
 * gdalwarp `-r` methods geohub passes through: the set the raster-xyz worker accepts
 * (lib/operations/raster-xyz.ts). An enum, so no value can smuggle an option in.
 */
export const RESAMPLING_METHODS = [
  'near',
  'bilinear',
  'cubic',
  'cubicspline',
  'lanczos',
  'average',
  'mode',
] as const;
export type Resampling = (typeof RESAMPLING_METHODS)[number];

/** Whether a value is one of them: the guard before a value reaches an argv. */
export const isResampling = (value: string): value is Resampling =>
  (RESAMPLING_METHODS as readonly string[]).includes(value);

/** raster-xyz's resampling unless a job says otherwise (docs/architecture.md, "Defaults and models"). */
export const DEFAULT_RESAMPLING: Resampling = 'bilinear';

/**
 * How a raster-xyz warp maps pixels (docs/architecture.md, "Metatiles"): GDAL's approximate
 * transformer (error at most 0.125 pixel, gdalwarp's and gdal2tiles' default) or the exact one
 * (`-et 0`: every pixel transformed, several times slower when the warp reprojects).
 */
export const TRANSFORMERS = ['approximate', 'exact'] as const;
export type Transformer = (typeof TRANSFORMERS)[number];
export const DEFAULT_TRANSFORMER: Transformer = 'approximate';
export { MAX_JOB_ZOOM };
/** A sidecar is a few dozen bytes (a WKT source CRS a few thousand); anything larger is not one we should parse. */
export const MAX_SIDECAR_BYTES = 4096;
/** A WKT source CRS fits; the sidecar's own bound applies too. */
const MAX_SOURCE_CRS_CHARS = 3500;

/**
 * The tile parameters a job may set. Strict: an unknown key is an error, not silently ignored;
 * every value is an enum member or a bounded non-negative integer, so none can start with `-`
 * and be taken for a command-line option.
 */
export const tileParamsSchema = z
  .object({
    /** One level, or a pyramid's levels as "min-max" (docs/architecture.md#pyramids). */
    zoom: z
      .union([z.number().int().min(0).max(MAX_JOB_ZOOM), z.string()])
      // The range's own problem, named (a union would only say "Invalid input").
      .check((ctx) => {
        if (typeof ctx.value !== 'string') return;
        const range = parseZoomRange(ctx.value);
        if (typeof range === 'string') ctx.issues.push({ code: 'custom', message: range, input: ctx.value });
      })
      .optional(),
    resampling: z.enum(RESAMPLING_METHODS).optional(),
    /** How a lower level's pixel is made from its four children (average, or near/mode for categories). */
    overviewResampling: z.enum(RESAMPLING_METHODS).optional(),
    transformer: z.enum(TRANSFORMERS).optional(),
    /** GeoTIFF tiles (the data), or PNG or WebP tiles for display (docs/cli.md#pyramids-and-display-tiles). */
    format: z.enum(TILE_FORMATS).optional(),
    /** Display tiles of data that is not 8-bit: the values shown from 0 to 255 (default: the header's range). */
    rescale: z
      .tuple([z.number(), z.number()])
      .refine(
        ([min, max]) => Number.isFinite(min) && Number.isFinite(max) && min < max,
        'must be [min, max] with min < max',
      )
      .optional(),
    /** Display tiles of one band: a colour ramp along the rescaled range. */
    colormap: z.enum(COLORMAP_NAMES).optional(),
    /**
     * The source's CRS, replacing what the file says (`gdalwarp -s_srs`, PDAL's `override_srs`):
     * EPSG:<code>, a PROJ string or a WKT. Never taken for an option: it follows its flag as a
     * separate argument, and may not start with `-`.
     */
    sourceCrs: z
      .string()
      .min(1)
      .max(MAX_SOURCE_CRS_CHARS)
      .regex(/^[^-\s]/, 'must be EPSG:<code>, a PROJ string or a WKT')
      .optional(),
  })
  .strict();

/** A normalised parameter: a word, a number, or a pair of numbers (a rescale). */
export type JobParamValue = string | number | readonly number[];

/** A pyramid's default: a lower level's pixel is the average of its four children, as gdal2tiles makes it. */
export const DEFAULT_OVERVIEW_RESAMPLING: Resampling = 'average';

/** The levels of a job's `zoom`, validated (a level is a range of one); undefined when it names none. */
export function zoomLevels(zoom: number | string | undefined): ZoomRange | undefined {
  if (zoom === undefined) return undefined;
  if (typeof zoom === 'number') return { min: zoom, max: zoom };
  const range = parseZoomRange(zoom);
  if (typeof range === 'string') throw new InvalidJobParamsError(`zoom ${JSON.stringify(zoom)}: ${range}`);
  return range;
}

/** The `<key>.job.json` sidecar: the operation and its parameters, all optional. */
export const jobParamsSchema = tileParamsSchema
  .extend({ operation: z.enum(OPERATION_NAMES).optional() })
  .strict();

export type TileParams = z.infer<typeof tileParamsSchema>;
export type JobParams = z.infer<typeof jobParamsSchema>;

/** The sidecar's key for a source key. */
export function sidecarKeyFor(sourceKey: string): string {
  return `${sourceKey}.job.json`;
}

/** Parses and validates sidecar text; every problem is listed in one InvalidJobParamsError. */
export function parseJobParams(text: string, where = 'job.json'): JobParams {
  if (Buffer.byteLength(text) > MAX_SIDECAR_BYTES) {
    throw new InvalidJobParamsError(
      `${where} is ${Buffer.byteLength(text)} bytes; a sidecar is at most ${MAX_SIDECAR_BYTES}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InvalidJobParamsError(`${where} is not JSON: ${(error as Error).message}`, { cause: error });
  }
  const parsed = jobParamsSchema.safeParse(json);
  if (!parsed.success) {
    throw new InvalidJobParamsError(`${where} is not a valid job: ${zodProblems(parsed.error)}`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

/**
 * The parameters a run's tiles are actually made with: defaults filled in, the zoom resolved,
 * keys in a fixed order. Resampling and the transformer belong to raster-xyz; asking for either
 * on a point cloud job is an error rather than a silently ignored setting.
 */
export function normaliseParams(
  operation: OperationName,
  params: TileParams,
  zoom: number,
  minZoom = zoom,
  values?: SourceValues,
  where = 'the source',
): Readonly<Record<string, JobParamValue>> {
  // The override changes where every pixel or point lands: part of the parameters (and their hash).
  const sourceCrs: Record<string, string> =
    params.sourceCrs === undefined ? {} : { sourceCrs: params.sourceCrs };
  // Only a pyramid has lower levels (and a run of one level keeps the parameters it always had).
  if (minZoom === zoom && params.overviewResampling !== undefined)
    throw new InvalidJobParamsError(
      'overviewResampling applies to a zoom range (lower levels), not to one level',
    );
  const levels: Record<string, JobParamValue> = {
    ...(minZoom < zoom
      ? { minZoom, overviewResampling: params.overviewResampling ?? DEFAULT_OVERVIEW_RESAMPLING }
      : {}),
    // Display tiles only: a GeoTIFF run keeps the parameters (and ids) it always had.
    ...normaliseDisplay(params, values, where),
  };
  if (operation === 'raster-xyz') {
    const resampling = params.resampling ?? DEFAULT_RESAMPLING;
    return {
      resampling,
      transformer: params.transformer ?? DEFAULT_TRANSFORMER,
      zoom,
      ...levels,
      ...sourceCrs,
    };
  }
  for (const key of ['resampling', 'transformer'] as const) {
    if (params[key] !== undefined)
      throw new InvalidJobParamsError(`${key} applies to raster-xyz, not to ${operation}`);
  }
  return { zoom, ...levels, ...sourceCrs };
}

/** A short hash of the operation and its normalised parameters: part of every sub-tile id. */
export function paramsVersion(
  operation: OperationName,
  normalised: Readonly<Record<string, JobParamValue>>,
): string {
  const canonical = JSON.stringify([
    operation,
    Object.entries(normalised).sort(([a], [b]) => a.localeCompare(b)),
  ]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 12);
}
