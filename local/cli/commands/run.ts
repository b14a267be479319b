import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { type CliIo, emit, intOption } from '../io.js';
import { createProgress } from '../progress.js';
import { runJob } from '../run-job.js';

export const EXIT_CANCELLED = 130;

export function registerRun(program: Command, io: CliIo): void {
  program
    .command('run')
    .description(
      'run the main job on the embedded local stack: upload <file>, process every sub-tile, copy the outputs',
    )
    .argument('<file>', 'a raster (GeoTIFF/COG) or a point cloud (LAS/LAZ/COPC)')
    .requiredOption(
      '--out <dir>',
      'where to copy the tiles (z/x/y.tif), the mosaic VRT and the STAC collection',
    )
    .option(
      '--zoom <z>',
      'XYZ zoom level (default: the one closest to the source resolution)',
      intOption(0, 22),
    )
    .option(
      '--workers <n>',
      'worker processes (default: one per core of this machine)',
      intOption(1, 32),
      // One worker per core: a worker's tool is single-threaded and its uploads overlap other work.
      Math.min(32, availableParallelism()),
    )
    .option('--json', 'print one JSON summary on stdout')
    .action(async (file: string, opts: { out: string; zoom?: number; workers: number; json?: boolean }) => {
      const verbose = Boolean(program.opts().verbose);
      const controller = new AbortController();
      const cancel = () => {
        if (!controller.signal.aborted) io.stderr.write('\ncancelling the run cleanly…\n');
        controller.abort();
      };
      process.on('SIGINT', cancel);
      process.on('SIGTERM', cancel);
      const progress = createProgress(io.stderr);
      try {
        const summary = await runJob({
          file,
          out: opts.out,
          zoom: opts.zoom,
          workers: opts.workers,
          signal: controller.signal,
          onProgress: (run) => progress.update(run),
          onWorkerLog: verbose ? (line) => io.stderr.write(`${line}\n`) : undefined,
        });
        progress.stop();
        emit(io, opts.json, summary, () => {
          const t = summary.tiles;
          const lines = [
            `${summary.status}: run ${summary.runId}, ${t.done}/${t.total} sub-tiles done, ${t.failed} failed, ${t.cancelled} cancelled, in ${(summary.durationMs / 1000).toFixed(1)} s`,
          ];
          if (summary.reason) lines.push(`reason: ${summary.reason}`);
          if (summary.outputs.mosaic)
            lines.push(`tiles: ${summary.outputs.dir}`, `mosaic: ${summary.outputs.mosaic}`);
          if (summary.outputs.stac) lines.push(`stac: ${summary.outputs.stac}`);
          return lines.join('\n');
        });
        io.exitCode = summary.status === 'SUCCEEDED' ? 0 : controller.signal.aborted ? EXIT_CANCELLED : 1;
        if (summary.status !== 'SUCCEEDED' && !opts.json) {
          io.stderr.write(
            `geohub run: the run ${summary.status.toLowerCase()}${summary.reason ? `: ${summary.reason}` : ''}\n`,
          );
        }
      } finally {
        progress.stop();
        process.off('SIGINT', cancel);
        process.off('SIGTERM', cancel);
      }
    });
}
