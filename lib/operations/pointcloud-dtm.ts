import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { createLogger, type Logger } from '../log/logger.js';
import { checkTileGrid } from '../pointcloud/check-tile-grid.js';
import { dtmParams } from '../pointcloud/dtm-params.js';
import { emptyTileArgs } from '../pointcloud/empty-tile-args.js';
import { unreadableBy } from '../pointcloud/engine-point-formats.js';
import type { ExtractTileRequest } from '../pointcloud/extract-tile-points.js';
import { extractorCommand } from '../pointcloud/extractor-command.js';
import { gdalGridArgs } from '../pointcloud/gdal-grid-args.js';
import { northUpWarpArgs } from '../pointcloud/north-up-warp-args.js';
import { pdalDtmPipeline } from '../pointcloud/pdal-dtm-pipeline.js';
import { readPointFormat } from '../pointcloud/read-point-format.js';
import { readRasterGrid } from '../pointcloud/read-raster-grid.js';
import { bufferedTile } from '../pointcloud/tile-region.js';
import { overrideSrs } from '../tiling/source-crs-override.js';
import { ExtractorOutputError, TileGridMismatchError, UnreadableSourceError } from './errors.js';
import type { Operation, OperationContext, ToolRunner } from './operation.js';
import { chooseEngine, ENGINE_ENV, type PointcloudEngine } from './pointcloud-engine.js';

export { ENGINE_ENV, type PointcloudEngine } from './pointcloud-engine.js';

export interface PointcloudDtmOptions {
  /** `auto` (the default): PDAL when `pdal` is on PATH, otherwise the local engine. */
  readonly engine?: PointcloudEngine | 'auto';
  readonly logger?: Logger;
}

/** What the operation reads of the extractor's summary: checked, since it crosses a process boundary. */
const summarySchema = z.looseObject({
  crs: z.string(),
  inputs: z.array(
    z.object({
      source: z.string(),
      format: z.enum(['las', 'laz', 'copc']),
      srs: z.string(),
      sourceBox: z.tuple([z.number(), z.number(), z.number(), z.number()]),
    }),
  ),
  pointsRead: z.number(),
  pointsInBox: z.number(),
  classes: z.record(z.string(), z.number()),
  selection: z.enum(['ground', 'unclassified', 'none']),
  complete: z.boolean(),
  points: z.looseObject({ vrt: z.string(), layer: z.string(), count: z.number() }).optional(),
});

type ExtractorSummary = z.infer<typeof summarySchema>;

function parseSummary(stdout: string): ExtractorSummary {
  try {
    return summarySchema.parse(JSON.parse(stdout.trim().split('\n').at(-1) ?? ''));
  } catch (error) {
    throw new ExtractorOutputError(`the point extractor printed no valid summary: ${stdout.slice(0, 300)}`, {
      cause: error,
    });
  }
}

/** The job's source CRS as PDAL's `override_srs` takes it, if the job has one. */
const sourceSrsOf = (params: Readonly<Record<string, unknown>>) =>
  typeof params.sourceCrs === 'string' ? overrideSrs(params.sourceCrs) : undefined;

/**
 * The point-cloud default operation (docs/architecture.md, "Defaults and models"): the ground of an XYZ tile's neighbourhood,
 * interpolated to a 256×256 Float32 DTM in EPSG:3857 over exactly the tile, nodata -9999,
 * DEFLATE. Z stays in the source's vertical unit (feet for US State Plane surveys), as PDAL's
 * reprojection to a horizontal CRS leaves it.
 *
 * Every step is a child process run through `tools` (budget, cancellation, process-group
 * cleanup), including the decoding of points in Node (extract-tile-points-main.ts):
 * 1. the extractor reads the tile's neighbourhood (COPC: only the octree nodes there; plain
 *    LAS/LAZ: streamed past, filtered by bounds) and decides the ground selection;
 * 2. nothing to interpolate → an all-nodata tile (gdal_create);
 * 3. PDAL engine: one pipeline (pdal-dtm-pipeline.ts); local engine: the points, averaged per
 *    pixel, through gdal_grid (invdistnn) from an OGR VRT that reprojects them;
 * 4. the written grid is checked against the tile (and flipped north-up if a tool wrote it
 *    south-up) before the caller promotes it.
 */
export function createPointcloudDtm(options: PointcloudDtmOptions = {}): Operation {
  let logger = options.logger;
  const log = () => {
    logger ??= createLogger({ component: 'pointcloud-dtm' });
    return logger;
  };
  // One warning per source and process: a million tiles need not repeat it.
  const warnedUnclassified = new Set<string>();

  return {
    name: 'pointcloud-dtm',
    async execute(ctx: OperationContext, tools: ToolRunner) {
      const { z: zoom, x, y } = ctx.tile;
      const { bounds, cell } = bufferedTile({ z: zoom, x, y }, 0);
      const { radius, power } = dtmParams(ctx.params, cell);
      const { buffered } = bufferedTile({ z: zoom, x, y }, radius);
      const engine = await chooseEngine(options.engine ?? process.env[ENGINE_ENV]);
      // One file, or the collection members under the tile (read as one cloud: no seam at their edges).
      const sources = typeof ctx.source === 'string' ? [ctx.source] : [...ctx.source];
      const source = sources.join(', ');

      const request: ExtractTileRequest = {
        mode: engine === 'pdal' ? 'probe' : 'points',
        sources,
        tile: { z: zoom, x, y },
        radius,
        outDir: ctx.scratch,
        ...(typeof ctx.params.sourceCrs === 'string' ? { sourceCrs: ctx.params.sourceCrs } : {}),
      };
      // The split refuses what the engine cannot read; a run split elsewhere is refused here too,
      // as data (never retried), before any tool wastes its budget on it.
      for (const file of sources) {
        const layout = await readPointFormat(file);
        const unreadable =
          layout && unreadableBy(engine, layout.compressed ? 'laz' : 'las', layout.pointFormat);
        if (unreadable) throw new UnreadableSourceError(`${file}: ${unreadable}`);
      }
      const extractor = extractorCommand(request);
      const summary = parseSummary((await tools.run(extractor.file, extractor.args)).stdout);
      log().debug(
        { tile: ctx.tile.id, engine, radius, ...summary, inputs: summary.inputs.length },
        'pointcloud-dtm points',
      );

      if (summary.selection === 'none') {
        await tools.run('gdal_create', emptyTileArgs(bounds, ctx.output));
      } else {
        if (summary.selection === 'unclassified' && !warnedUnclassified.has(source)) {
          warnedUnclassified.add(source);
          log().warn(
            { source: source, tile: ctx.tile.id, engine, classes: summary.classes },
            engine === 'pdal'
              ? 'the point cloud has no ground class here: PDAL classifies ground with SMRF first'
              : 'the point cloud has no ground class here and PDAL is not installed: the DTM is made from all ' +
                  'points, a surface model where there are trees or buildings',
          );
        }
        if (engine === 'pdal') {
          const pipeline = join(ctx.scratch, 'pipeline.json');
          const spec = pdalDtmPipeline({
            inputs: summary.inputs,
            bounds,
            buffered,
            radius,
            power,
            selection: summary.selection,
            output: ctx.output,
            sourceSrs: sourceSrsOf(ctx.params),
          });
          await writeFile(pipeline, `${JSON.stringify(spec, null, 2)}\n`);
          await tools.run('pdal', ['pipeline', pipeline]);
        } else {
          const points = summary.points;
          if (!points) throw new ExtractorOutputError('the point extractor selected points but wrote none');
          await tools.run(
            'gdal_grid',
            gdalGridArgs({ vrt: points.vrt, layer: points.layer, bounds, radius, power, output: ctx.output }),
          );
        }
      }

      if (checkTileGrid(await readRasterGrid(ctx.output), bounds) === 'south-up') {
        // Moved aside first: gdalwarp must not read and write the same file.
        const southUp = join(ctx.scratch, 'south-up.tif');
        await rename(ctx.output, southUp);
        await tools.run('gdalwarp', northUpWarpArgs(southUp, bounds, ctx.output));
        if (checkTileGrid(await readRasterGrid(ctx.output), bounds) !== 'north-up') {
          throw new TileGridMismatchError('gdalwarp did not turn the tile north-up');
        }
      }
    },
  };
}

export const pointcloudDtm: Operation = createPointcloudDtm();
