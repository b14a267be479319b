import type { Command } from 'commander';
import { DEFAULT_ESTIMATE, estimateRun } from '../../../lib/cost/run-estimate.js';
import { type CliIo, emit, intOption } from '../io.js';
import { resolveJobInputs } from '../job-inputs.js';

export function registerPlan(program: Command, io: CliIo): void {
  program
    .command('plan')
    .description(
      'dry run: sub-tile count, estimated time and AWS cost, reading only the headers of the input',
    )
    .argument(
      '<inputs...>',
      'a raster or a point cloud; or a collection: several files, a directory or a .txt list',
    )
    .option(
      '--zoom <z>',
      'XYZ zoom level (default: the one closest to the source resolution)',
      intOption(0, 22),
    )
    .option('--workers <n>', 'workers to estimate the time for', intOption(1, 10_000), 2)
    .option('--json', 'print one JSON object on stdout')
    .action(async (inputs: string[], opts: { zoom?: number; workers: number; json?: boolean }) => {
      const file = inputs[0]!;
      // A FIFO or device is refused before it is opened (a FIFO would block the read).
      const given = await resolveJobInputs(inputs);
      if (given.kind === 'collection') {
        const { planCollectionLocally } = await import('../plan-collection-locally.js');
        const plan = await planCollectionLocally(given.members, opts.zoom, file);
        if (!('total' in plan)) {
          io.exitCode = 1;
          emit(io, opts.json, { file, ...plan }, () =>
            [
              `${file}: none of ${plan.members} members can be read:`,
              ...plan.unreadable.map((u) => `  ${u.reason}`),
            ].join('\n'),
          );
          return;
        }
        const operation = plan.kind === 'raster' ? 'raster-xyz' : 'pointcloud-dtm';
        const estimate = estimateRun(plan.total, operation, { ...DEFAULT_ESTIMATE, workers: opts.workers });
        const result = {
          file,
          ...plan,
          operation,
          tiles: plan.total,
          estimate: { workers: opts.workers, seconds: estimate.seconds, costUsd: estimate.cost },
        };
        emit(io, opts.json, result, () =>
          [
            `${file}: a collection of ${plan.members} ${plan.kind === 'raster' ? 'rasters' : 'point clouds'} in ${plan.crss.join(', ')}, ${operation}`,
            ...plan.unreadable.map(
              (u) => `cannot be read (the run is refused unless --skip-unreadable): ${u.reason}`,
            ),
            `zoom ${plan.zoom} (native ${plan.nativeZoom}): ${plan.total.toLocaleString('en-US')} sub-tiles over the union`,
            `estimated time with ${opts.workers} workers: ${estimate.seconds.toFixed(1)} s of tool work (plus start-up)`,
            `estimated AWS cost: $${estimate.cost.total.toFixed(6)}`,
          ].join('\n'),
        );
        return;
      }
      const input = given.file;
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
