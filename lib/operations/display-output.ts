import type { TileTask } from '../model/tile.js';
import { isDisplayFormat, TILE_FORMAT_SPECS, tileFormatOf } from '../model/tile-format.js';
import { tileBounds } from '../tiling/tile-bounds.js';
import { mercatorGridArgs } from '../tiling/warp-args.js';
import { COLORMAPS, type Colormap } from './colormaps.js';

/** How the engine writes a block's tiles for display (absent from a spec: GeoTIFF, the data). */
export interface DisplayOutput {
  readonly format: string;
  readonly rescale?: readonly [number, number];
  readonly ramp?: readonly (readonly [number, number, number, number])[];
}

/**
 * A run's display output, from its parameters: the GDAL driver, the rescale and the ramp's stops.
 * `children`: a lower level, made from display tiles already scaled and coloured.
 */
export function displayOutput(
  params: Readonly<Record<string, unknown>>,
  children = false,
): DisplayOutput | undefined {
  const format = tileFormatOf(params);
  if (!isDisplayFormat(format)) return undefined;
  const rescale = Array.isArray(params.rescale) ? (params.rescale as [number, number]) : undefined;
  const colormap = typeof params.colormap === 'string' ? (params.colormap as Colormap) : undefined;
  return {
    format: TILE_FORMAT_SPECS[format].driver,
    ...(rescale && !children ? { rescale } : {}),
    ...(colormap && !children ? { ramp: COLORMAPS[colormap] } : {}),
  };
}

/**
 * The engine spec that renders a one-tile GeoTIFF (a DTM tile) as a display tile: the same grid
 * read back pixel for pixel (nearest, so no value moves), written as the run's display format.
 */
export function renderTileSpec(
  data: string,
  tile: TileTask,
  output: string,
  params: Readonly<Record<string, unknown>>,
  tileSize: number,
): string {
  return JSON.stringify({
    source: data,
    tileSize,
    warp: [
      ...mercatorGridArgs(tileBounds(tile.z, tile.x, tile.y), tileSize, tileSize),
      '-r',
      'near',
      '-dstalpha',
    ],
    tiles: [{ col: 0, row: 0, output }],
    output: displayOutput(params),
  });
}
