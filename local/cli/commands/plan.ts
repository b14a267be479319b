import type { Command } from 'commander';
import { DEFAULT_ESTIMATE, estimateRun } from '../../../lib/cost/run-estimate.js';
import { type CliIo, emit, intOption, ZOOM_HELP, zoomOption } from '../io.js';
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
    .option('--zoom <z>', ZOOM_HELP, zoomOption)
    .option('--workers <n>', 'workers to estimate the time for', intOption(1, 10_000), 2)
    .option('--json', 'print one JSON object on stdout')
    .action(async (inputs: string[], opts: { zoom?: number | string; workers: number; json?: boolean }) => {
      const { planLevels, levelsLine } = await import('../plan-levels.js');
      const { zoomLevels } = await import('../../../lib/split/job-params.js');
      const baseZoom = zoomLevels(opts.zoom)?.max;
      const file = inputs[0]!;
      // A FIFO or device is refused before it is opened (a FIFO would block the read).
      const given = await resolveJobInputs(inputs);
      if (given.kind === 'collection') {
        const { planCollectionLocally } = await import('../plan-collection-locally.js');
        const plan = await planCollectionLocally(given.members, baseZoom, file);
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
        const { cover, ...shown } = plan;
        const levels = planLevels(cover, plan.zoom, plan.total, opts.zoom);
        const estimate = estimateRun(levels.total, operation, { ...DEFAULT_ESTIMATE, workers: opts.workers });
        const result = {
          file,
          ...shown,
          operation,
          tiles: levels.total,
          ...(levels.levels.length > 1 ? { minZoom: levels.minZoom, levels: levels.levels } : {}),
          estimate: { workers: opts.workers, seconds: estimate.seconds, costUsd: estimate.cost },
        };
        emit(io, opts.json, result, () =>
          [
            `${file}: a collection of ${plan.members} ${plan.kind === 'raster' ? 'rasters' : 'point clouds'} in ${plan.crss.join(', ')}, ${operation}`,
            ...plan.unreadable.map(
              (u) => `cannot be read (the run is refused unless --skip-unreadable): ${u.reason}`,
            ),
            `zoom ${plan.zoom} (native ${plan.nativeZoom}): ${plan.total.toLocaleString('en-US')} sub-tiles over the union`,
            ...(levelsLine(levels) ? [levelsLine(levels)!] : []),
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
      const plan = planTiles(header, baseZoom, file);
      const levels = planLevels([plan.ranges], plan.zoom, plan.total, opts.zoom);
      const operation = header.kind === 'raster' ? 'raster-xyz' : 'pointcloud-dtm';
      const estimate = estimateRun(levels.total, operation, { ...DEFAULT_ESTIMATE, workers: opts.workers });
      const result = {
        file,
        kind: header.kind,
        operation,
        crs: plan.crs,
        zoom: plan.zoom,
        nativeZoom: plan.nativeZoom,
        tiles: levels.total,
        ...(levels.levels.length > 1 ? { minZoom: levels.minZoom, levels: levels.levels } : {}),
        headerBytesRead: read.bytes,
        estimate: { workers: opts.workers, seconds: estimate.seconds, costUsd: estimate.cost },
      };
      emit(io, opts.json, result, () =>
        [
          `${file}: ${header.kind} in ${plan.crs}, ${operation}`,
          `zoom ${plan.zoom} (native ${plan.nativeZoom}): ${plan.total.toLocaleString('en-US')} sub-tiles`,
          ...(levelsLine(levels) ? [levelsLine(levels)!] : []),
          `estimated time with ${opts.workers} workers: ${estimate.seconds.toFixed(1)} s of tool work (plus start-up)`,
          `estimated AWS cost: $${estimate.cost.total.toFixed(6)} (Fargate Spot $${estimate.cost.compute.toFixed(6)}, requests $${estimate.cost.requests.toFixed(6)})`,
        ].join('\n'),
      );
    });
}
