import type { TileTask } from '../model/tile.js';
import { isResampling } from '../split/job-params.js';
import { overrideSrs } from '../tiling/source-crs-override.js';
import type { Bounds } from '../tiling/tile-bounds.js';
import { tileBounds } from '../tiling/tile-bounds.js';
import { gtiffWarpArgv, mercatorGridArgs } from '../tiling/warp-args.js';
import { displayOutput } from './display-output.js';
import { InvalidOperationParamsError } from './errors.js';
import { metatileLayouts } from './metatile-layout.js';
import type { BlockContext, Operation, OperationContext } from './operation.js';

export const TILE_SIZE = 256;
/**
 * gdalwarp's `-et` for each transformer: 0.125 pixel is GDAL's own default, written out so that
 * the choice is visible in every argv; 0 transforms every pixel exactly.
 */
const ERROR_THRESHOLD: Readonly<Record<string, string>> = { approximate: '0.125', exact: '0' };

/**
 * The warp of the raster default (docs/architecture.md, "Metatiles") over `bounds` at `width` ×
 * `height` pixels, without format, source or destination: shared by the per-tile gdalwarp argv
 * and the metatile engine, so both make the same pixels.
 */
export function rasterWarpOptions(
  bounds: Bounds,
  width: number,
  height: number,
  params: Readonly<Record<string, unknown>>,
): string[] {
  const resampling = String(params.resampling ?? 'bilinear');
  const transformer = String(params.transformer ?? 'approximate');
  // Parameters are validated by schema upstream; this guard keeps a bad value from ever
  // reaching argv (no option injection even if a caller skipped validation).
  if (!isResampling(resampling)) throw new InvalidOperationParamsError(`unknown resampling ${resampling}`);
  const threshold = Object.hasOwn(ERROR_THRESHOLD, transformer) ? ERROR_THRESHOLD[transformer] : undefined;
  if (threshold === undefined) throw new InvalidOperationParamsError(`unknown transformer ${transformer}`);
  // The job's source CRS replaces the file's, as the split planned with it (job-params.ts).
  const sourceCrs = typeof params.sourceCrs === 'string' ? ['-s_srs', overrideSrs(params.sourceCrs)] : [];
  return [
    ...sourceCrs,
    ...mercatorGridArgs(bounds, width, height),
    '-r',
    resampling,
    // Clamped by GDAL to the type's range for integer sources (0 for Byte): nodata is 0 there.
    // Display tiles: an alpha band instead, as gdal2tiles.py warps (a dark pixel stays opaque).
    ...(displayOutput(params) ? ['-dstalpha'] : ['-dstnodata', '-9999']),
    // Approximate by default, as gdalwarp and gdal2tiles are: the exact transformer costs about
    // 7× the warp when reprojecting. Approximated, a pixel's value depends on where the warp's
    // chunk starts, so a tile cut from a metatile may differ from the same tile warped alone by
    // the value change over an eighth of a pixel; exact, they are equal
    // (docs/architecture.md#metatiles).
    '-et',
    threshold,
  ];
}

/** The per-tile gdalwarp argv: one XYZ tile, 256×256, EPSG:3857, DEFLATE. */
export function rasterXyzArgs(ctx: OperationContext): string[] {
  const { z, x, y } = ctx.tile;
  return gtiffWarpArgv(
    rasterWarpOptions(tileBounds(z, x, y), TILE_SIZE, TILE_SIZE, ctx.params),
    ctx.source,
    ctx.output,
  );
}

/** The metatile engine's spec for each warp of a block: one JSON document per process, on its stdin. */
export function rasterBlockSpecs(ctx: BlockContext): { spec: string; tiles: TileTask[] }[] {
  const outputs = new Map(ctx.tiles.map((t) => [t.tile.id, t.output]));
  const display = displayOutput(ctx.params);
  return metatileLayouts(ctx.tiles.map((t) => t.tile)).map((layout) => ({
    spec: JSON.stringify({
      source: ctx.source,
      tileSize: TILE_SIZE,
      warp: rasterWarpOptions(layout.bounds, layout.cols * TILE_SIZE, layout.rows * TILE_SIZE, ctx.params),
      tiles: layout.tiles.map(({ tile, col, row }) => ({ col, row, output: outputs.get(tile.id) })),
      ...(display ? { output: display } : {}),
    }),
    tiles: layout.tiles.map(({ tile }) => tile),
  }));
}

export const rasterXyz: Operation = {
  name: 'raster-xyz',
  async execute(ctx, tools) {
    await tools.run('gdalwarp', rasterXyzArgs(ctx));
  },
  async executeBlock(ctx, tools) {
    // One process per metatile (a message's block is one): warped once, cut into its tiles.
    // A block that is not one rectangle (an edge, the antimeridian) takes one process per part.
    for (const { spec, tiles } of rasterBlockSpecs(ctx))
      await tools.run(ctx.engine.file, ctx.engine.args, { tiles, input: spec });
  },
};
