import type { Command } from 'commander';
import { DEFAULT_ESTIMATE, estimateRun } from '../../../lib/cost/run-estimate.js';
import { checkInputFile } from '../input-file.js';
import { type CliIo, emit, intOption } from '../io.js';

export function registerPlan(program: Command, io: CliIo): void {
  program
    .command('plan')
    .description('dry run: sub-tile count, estimated time and AWS cost, reading only the header of <file>')
    .argument('<file>', 'a raster (GeoTIFF/COG) or a point cloud (LAS/LAZ/COPC)')
    .option(
      '--zoom <z>',
      'XYZ zoom level (default: the one closest to the source resolution)',
      intOption(0, 22),
    )
    .option('--workers <n>', 'workers to estimate the time for', intOption(1, 10_000), 2)
    .option('--json', 'print one JSON object on stdout')
    .action(async (file: string, opts: { zoom?: number; workers: number; json?: boolean }) => {
      // A directory, FIFO or device is refused before it is opened (a FIFO would block the read).
      const input = await checkInputFile(file);
      // The header readers and the CRS database load for this command only (main.ts stays light).
      const [{ readSourceHeader }, { planTiles }, { localFileStore }] = await Promise.all([
        import('../../../lib/source/read-source-header.js'),
        import('../../../lib/split/plan-tiles.js'),
        import('../../../lib/store/file-store.js'),
      ]);
      const store = localFileStore(input.path);
      const { header, read } = await readSourceHeader(store, store.key);
      const plan = planTiles(header, opts.zoom, file);
      const operation = header.kind === 'raster' ? 'raster-xyz' : 'pointcloud-dtm';
      const estimate = estimateRun(plan.total, operation, { ...DEFAULT_ESTIMATE, workers: opts.workers });
      const result = {
        file,
        kind: header.kind,
        operation,
        crs: plan.crs,
        zoom: plan.zoom,
        nativeZoom: plan.nativeZoom,
        tiles: plan.total,
        headerBytesRead: read.bytes,
        estimate: { workers: opts.workers, seconds: estimate.seconds, costUsd: estimate.cost },
      };
      emit(io, opts.json, result, () =>
        [
          `${file}: ${header.kind} in ${plan.crs}, ${operation}`,
          `zoom ${plan.zoom} (native ${plan.nativeZoom}): ${plan.total.toLocaleString('en-US')} sub-tiles`,
          `estimated time with ${opts.workers} workers: ${estimate.seconds.toFixed(1)} s of tool work (plus start-up)`,
          `estimated AWS cost: $${estimate.cost.total.toFixed(6)} (Fargate Spot $${estimate.cost.compute.toFixed(6)}, requests $${estimate.cost.requests.toFixed(6)})`,
        ].join('\n'),
      );
    });
}
