import { DEFAULT_OVERVIEW_RESAMPLING, isResampling } from '../split/job-params.js';
import { mercatorGridArgs } from '../tiling/warp-args.js';
import { InvalidOperationParamsError } from './errors.js';
import { metatileLayouts } from './metatile-layout.js';
import type { BlockContext, Operation, ToolRunner } from './operation.js';
import { TILE_SIZE } from './raster-xyz.js';

/**
 * The warp of a pyramid's lower level (docs/architecture.md#pyramids): the block's bounds at
 * its own resolution, from its children one level up (a mosaic of their tiles, all in EPSG:3857
 * on the same grid), so each pixel is made from exactly its 2×2 children by the job's overview
 * resampling. Nodata stays nodata (a child not made, a tile's empty corner): `average` leaves it
 * out, as gdal2tiles does; -et 0, the grids being the same, costs nothing.
 */
export function overviewWarpOptions(
  bounds: Parameters<typeof mercatorGridArgs>[0],
  width: number,
  height: number,
  params: Readonly<Record<string, unknown>>,
): string[] {
  const resampling = String(params.overviewResampling ?? DEFAULT_OVERVIEW_RESAMPLING);
  if (!isResampling(resampling))
    throw new InvalidOperationParamsError(`unknown overview resampling ${resampling}`);
  return [...mercatorGridArgs(bounds, width, height), '-r', resampling, '-dstnodata', '-9999', '-et', '0'];
}

/**
 * A lower level's block: one engine request per rectangle of its tiles, whatever the run's
 * operation (a DTM's lower levels are rasters too), its source the children's local copies.
 */
export async function executeOverviewBlock(ctx: BlockContext, tools: ToolRunner): Promise<void> {
  const outputs = new Map(ctx.tiles.map((t) => [t.tile.id, t.output]));
  for (const layout of metatileLayouts(ctx.tiles.map((t) => t.tile))) {
    const spec = JSON.stringify({
      source: ctx.source,
      tileSize: TILE_SIZE,
      warp: overviewWarpOptions(layout.bounds, layout.cols * TILE_SIZE, layout.rows * TILE_SIZE, ctx.params),
      tiles: layout.tiles.map(({ tile, col, row }) => ({ col, row, output: outputs.get(tile.id) })),
    });
    await tools.run(ctx.engine.file, ctx.engine.args, {
      tiles: layout.tiles.map(({ tile }) => tile),
      input: spec,
    });
  }
}

/**
 * The lower levels' operation: by block only (a metatile's children are downloaded for it);
 * `execute`, one tile at a time, is never what a worker calls for a metatile with children.
 */
export const OVERVIEW: Operation = {
  name: 'raster-xyz',
  async execute() {
    throw new InvalidOperationParamsError('a lower level is made by block, from its children');
  },
  executeBlock: executeOverviewBlock,
};
