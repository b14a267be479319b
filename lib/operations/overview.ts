import { DEFAULT_OVERVIEW_RESAMPLING, isResampling } from '../split/job-params.js';
import { tileBounds } from '../tiling/tile-bounds.js';
import { mercatorGridArgs } from '../tiling/warp-args.js';
import { displayOutput } from './display-output.js';
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
  // Display tiles carry their transparency in an alpha band: kept, and weighing the average.
  const empty = displayOutput(params, true) ? ['-dstalpha'] : ['-dstnodata', '-9999'];
  return [...mercatorGridArgs(bounds, width, height), '-r', resampling, ...empty, '-et', '0'];
}

/** Each child with where it lies (ulx, uly, lrx, lry in EPSG:3857): display tiles have no georeferencing. */
function placedSources(ctx: BlockContext) {
  const paths = typeof ctx.source === 'string' ? [ctx.source] : ctx.source;
  return paths.map((path, i) => {
    const tile = ctx.sourceTiles?.[i];
    if (!tile) throw new InvalidOperationParamsError(`child ${path} comes without its tile`);
    const b = tileBounds(tile.z, tile.x, tile.y);
    return { path, bounds: [b.minX, b.maxY, b.maxX, b.minY] };
  });
}

/**
 * A lower level's block: one engine request per rectangle of its tiles, whatever the run's
 * operation (a DTM's lower levels are rasters too), its source the children's local copies.
 */
export async function executeOverviewBlock(ctx: BlockContext, tools: ToolRunner): Promise<void> {
  const outputs = new Map(ctx.tiles.map((t) => [t.tile.id, t.output]));
  const display = displayOutput(ctx.params, true);
  for (const layout of metatileLayouts(ctx.tiles.map((t) => t.tile))) {
    const spec = JSON.stringify({
      source: display ? placedSources(ctx) : ctx.source,
      tileSize: TILE_SIZE,
      warp: overviewWarpOptions(layout.bounds, layout.cols * TILE_SIZE, layout.rows * TILE_SIZE, ctx.params),
      tiles: layout.tiles.map(({ tile, col, row }) => ({ col, row, output: outputs.get(tile.id) })),
      ...(display ? { output: display } : {}),
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
