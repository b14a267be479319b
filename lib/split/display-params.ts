import type { TileFormat } from '../model/tile-format.js';
import { COLORMAP_NAMES, type Colormap } from '../operations/colormaps.js';
import { InvalidJobParamsError } from './errors.js';

/** What the split knows of a source's values, for its display tiles. */
export interface SourceValues {
  /** GDAL's name of the band type (`Byte`, `Float32`, …); a point cloud's DTM is Float32. */
  readonly dataType: string;
  readonly bands: number;
  /** The range its header records (a point cloud's z), if any. */
  readonly range?: readonly [number, number];
}

export interface DisplayParams {
  readonly format?: TileFormat;
  readonly rescale?: readonly [number, number];
  readonly colormap?: Colormap;
}

export { COLORMAP_NAMES };

/**
 * A job's display options, resolved for its source: GeoTIFF tiles take none; PNG and WebP tiles
 * of 8-bit data are its values as they are, of other data its values scaled from `rescale` (given,
 * else the range the header records) to 0-255, then through `colormap` if given (one band only).
 * What cannot be resolved is refused here, in one line, before a tile is made.
 */
export function normaliseDisplay(
  params: DisplayParams,
  values: SourceValues | undefined,
  where: string,
): Record<string, string | readonly number[]> {
  const format = params.format ?? 'gtiff';
  if (format === 'gtiff') {
    for (const key of ['rescale', 'colormap'] as const)
      if (params[key] !== undefined)
        throw new InvalidJobParamsError(
          `${key} applies to display tiles ("format": "png" or "webp"), not to GeoTIFF`,
        );
    return {};
  }
  const byte = values?.dataType === 'Byte';
  const rescale = params.rescale ?? (byte ? undefined : values?.range);
  if (!byte && !rescale) {
    throw new InvalidJobParamsError(
      `${where} is ${values?.dataType ?? 'of unknown type'}, and its header records no value range: ` +
        `${format} tiles need "rescale": [min, max] (the values shown from black to white, or along the colormap)`,
    );
  }
  if (params.colormap !== undefined && (values?.bands ?? 1) !== 1) {
    throw new InvalidJobParamsError(`colormap applies to one band; ${where} has ${values?.bands}`);
  }
  return {
    format,
    ...(rescale ? { rescale: [rescale[0], rescale[1]] } : {}),
    ...(params.colormap ? { colormap: params.colormap } : {}),
  };
}
