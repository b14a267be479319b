import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { portOf } from '../api-client.js';
import { EXIT_CANCELLED } from '../cli-error.js';
import { type CliIo, emit, intOption, ZOOM_HELP, zoomOption } from '../io.js';
import { createProgress } from '../progress.js';
import { runJob } from '../run-job.js';
import { createUploadProgress } from '../upload-progress.js';

interface RunOptions {
  out: string;
  zoom?: number | string;
  job?: string;
  sSrs?: string;
  replace?: boolean;
  workers: number;
  json?: boolean;
  standalone?: boolean;
  skipUnreadable?: boolean;
}

export function registerRun(program: Command, io: CliIo): void {
  program
    .command('run')
    .description(
      'run the main job on the embedded local stack: upload the input (a file or a collection), process every sub-tile, copy the outputs',
    )
    .argument(
      '<inputs...>',
      'a raster (GeoTIFF/COG) or a point cloud (LAS/LAZ/COPC); or a collection tiled as one seamless source: ' +
        'several files (rasters, or LAS/LAZ tiles), a directory of them, or a .txt file listing one path per line ' +
        '(where rasters overlap, the later file wins; overlapping point clouds are all used)',
    )
    .requiredOption(
      '--out <dir>',
      'where to copy the tiles (z/x/y.tif), the mosaic VRT and the STAC collection (created if missing; must be empty)',
    )
    .option('--zoom <z>', ZOOM_HELP, zoomOption)
    .option(
      '--job <file>',
      'job sidecar {"operation","zoom","resampling","transformer","sourceCrs","overviewResampling","format","rescale","colormap"} (default: <file>.job.json if present)',
    )
    .option(
      '--s-srs <crs>',
      "the source's CRS, replacing what the file says (as gdalwarp -s_srs): EPSG:<code>, a PROJ string or a WKT",
    )
    .option('--replace', "replace a previous run's outputs in --out")
    .option(
      '--workers <n>',
      'worker processes of the private stack (default: one per core of this machine; a running geohub up has its own)',
      intOption(1, 32),
      // One worker per core: a worker's tool is single-threaded and its uploads overlap other work.
      Math.min(32, availableParallelism()),
    )
    .option(
      '--standalone',
      'start a private stack for this run even when a `geohub up` of yours is running (default: use it; also GEOHUB_STANDALONE=1)',
    )
    .option(
      '--skip-unreadable',
      "a collection's unreadable members (corrupt, no CRS, other data) are skipped and recorded, instead of refusing the run",
    )
    .option('--json', 'print one JSON summary on stdout')
    .action(async (inputs: string[], opts: RunOptions) => {
      const verbose = Boolean(program.opts().verbose);
      const controller = new AbortController();
      const progress = createProgress(io.stderr);
      const upload = createUploadProgress(io.stderr);
      // One line for a cancel, finished when the run has ended: progress stops printing first.
      const cancel = () => {
        if (controller.signal.aborted) return;
        upload.stop();
        progress.stop();
        io.stderr.write('geohub run: cancelling the run cleanly… ');
        controller.abort();
      };
      process.on('SIGINT', cancel);
      process.on('SIGTERM', cancel);
      try {
        const summary = await runJob({
          file: inputs[0]!,
          inputs,
          out: opts.out,
          zoom: opts.zoom,
          job: opts.job,
          sourceCrs: opts.sSrs,
          replace: opts.replace,
          skipUnreadable: opts.skipUnreadable === true,
          workers: opts.workers,
          signal: controller.signal,
          standalone: opts.standalone === true || io.env.GEOHUB_STANDALONE === '1',
          env: io.env,
          onCollection: (c) =>
            io.stderr.write(
              `geohub run: a collection of ${c.members} files (${c.name}), tiled as one seamless source\n`,
            ),
          onUp: (use) =>
            io.stderr.write(
              'using' in use
                ? `geohub run: on your running geohub up at ${use.using.url} (pid ${use.using.pid}), with its workers; --standalone starts a private stack instead\n`
                : `geohub run: not using the geohub up on port ${portOf(io.env)}: ${use.notUsed}; starting a private stack\n`,
            ),
          onUpload: (sent, total) => {
            if (!controller.signal.aborted) upload.update(sent, total);
            if (sent === total) upload.stop();
          },
          onProgress: (run) => {
            if (!controller.signal.aborted) progress.update(run);
          },
          onWorkerLog: verbose ? (line) => io.stderr.write(`${line}\n`) : undefined,
        });
        progress.stop();
        emit(io, opts.json, summary, () => {
          const t = summary.tiles;
          const lines = [
            `${summary.status}: run ${summary.runId}, ${t.done}/${t.total} sub-tiles done, ${t.failed} failed, ${t.cancelled} cancelled, in ${(summary.durationMs / 1000).toFixed(1)} s`,
          ];
          if (summary.collection) {
            const c = summary.collection;
            lines.push(
              `collection: ${c.name}, ${c.members} files read${c.skipped > 0 ? `, ${c.skipped} skipped` : ''}`,
            );
          }
          if (summary.reason) lines.push(`reason: ${summary.reason}`);
          for (const warning of summary.warnings ?? []) lines.push(`warning: ${warning}`);
          if (summary.outputs.mosaic)
            lines.push(`tiles: ${summary.outputs.dir}`, `mosaic: ${summary.outputs.mosaic}`);
          if (summary.outputs.stac) lines.push(`stac: ${summary.outputs.stac}`);
          if (summary.outputs.pmtiles) lines.push(`pmtiles: ${summary.outputs.pmtiles}`);
          return lines.join('\n');
        });
        const cancelled = controller.signal.aborted;
        io.exitCode = summary.status === 'SUCCEEDED' ? 0 : cancelled ? EXIT_CANCELLED : 1;
        if (cancelled) {
          io.stderr.write(
            `the run ${summary.status.toLowerCase()} (${summary.tiles.done}/${summary.tiles.total} sub-tiles done)\n`,
          );
        } else if (summary.status !== 'SUCCEEDED' && !opts.json) {
          io.stderr.write(
            `geohub run: the run ${summary.status.toLowerCase()}${summary.reason ? `: ${summary.reason}` : ''}\n`,
          );
        }
      } catch (error) {
        // The cancel line is open: finish it with the reason.
        if (controller.signal.aborted) io.stderr.write('\n');
        throw error;
      } finally {
        upload.stop();
        progress.stop();
        process.off('SIGINT', cancel);
        process.off('SIGTERM', cancel);
      }
    });
}
