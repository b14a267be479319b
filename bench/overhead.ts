/**
 * geohub against the tools a user would otherwise run, side by side on one raster:
 * - `geohub`'s full path (upload → split → enqueue → workers → markers → finalize), one worker
 *   per core as `geohub run` defaults to, on a stack already up with its workers polling; and
 *   `geohub run` itself, the built CLI from command to exit (geohub-cli-run.ts): start-up included;
 * - the raw tool, `xargs -P <workers> gdalwarp`, one process per tile over exactly the same tile
 *   windows: as a user types it (GDAL's approximate transformer, geohub's default too) and with
 *   the exact one (`-et 0`, several times slower when reprojecting);
 * - GDAL's own tiler, `gdal2tiles.py --xyz --processes=<workers>` at the same zoom (PNG tiles).
 * Each is timed `runs` times, one of each per round (median, min, max). Also: bytes per tile, today's lean tiles
 * against the per-tile gdalwarp's (256×8 strips, DEFLATE, no predictor).
 */
import { allManifestTiles } from '../lib/manifest/walk-manifest.js';
import { tilesPrefix } from '../lib/model/ids.js';
import type { TileTask } from '../lib/model/tile.js';
import { startLocalHub } from '../local/hub/local-hub.js';
import { geohubCliRun } from './geohub-cli-run.js';
import { gdal2tilesRun, rawRun } from './peer-runs.js';
import type { BenchRaster } from './sources.js';
import { ratio, type Spread, spread } from './support/stats.js';
import { startUpDaemon } from './support/up-daemon.js';

export interface GeohubRun {
  readonly startupSeconds: number;
  readonly runSeconds: number;
  readonly stopSeconds: number;
  readonly tiles: readonly TileTask[];
  readonly zoom: number;
  readonly tileBytes: number;
  readonly toolRuns: number;
}

export interface OverheadFigures {
  readonly raster: string;
  readonly tiles: number;
  readonly zoom: number;
  readonly workers: number;
  readonly geohub: {
    readonly run: Spread;
    /** `geohub run`, the built CLI, from command to exit. */
    readonly withStartup: Spread;
    /** The same command with a `geohub up` already running, warmed by one run (older results lack it). */
    readonly withUp?: Spread;
    /** The hub's start until every worker polls, and its stop (older results lack them). */
    readonly startup?: Spread;
    readonly stop?: Spread;
    readonly toolRuns: number;
  };
  /** The raw tool; unset where only the tiler was compared (BenchRaster.peers). */
  readonly rawExact?: Spread;
  readonly rawDefault?: Spread;
  readonly gdal2tiles: Spread & { readonly tiles: number };
  /** What geohub's tiles were made with: its default, GDAL's approximate transformer. */
  readonly transformer: 'approximate';
  readonly ratios: {
    /** geohub (start-up excluded, then included) / `xargs gdalwarp` as typed: the same transformer. */
    readonly excludingStartup?: number;
    readonly includingStartup?: number;
    /** geohub (start-up excluded) / `xargs gdalwarp -et 0`, the exact transformer. */
    readonly vsRawExact?: number;
    readonly vsGdal2tiles: number;
  };
  /** Against the per-tile gdalwarp's tiles: unset where the raw tool was not run. */
  readonly bytesPerTile?: { readonly before: number; readonly after: number };
}

const seconds = (ms: number) => Math.round(ms) / 1000;

/** One timed `geohub` run on a fresh local stack. */
export async function geohubRun(raster: BenchRaster, workers: number): Promise<GeohubRun> {
  let ready = 0;
  let toolRuns = 0;
  const pids = new Set<number>();
  const t0 = performance.now();
  const hub = await startLocalHub({
    workers,
    pollMs: 250,
    workerEnv: { GEOHUB_RECEIVE_WAIT_S: '1', GEOHUB_LOG_LEVEL: 'info' },
    onWorkerLog: (_line, parsed) => {
      if (parsed?.msg === 'worker started') ready += 1;
      if (parsed?.msg === 'tool started' && !pids.has(Number(parsed.pid))) {
        pids.add(Number(parsed.pid));
        toolRuns += 1;
      }
    },
  });
  try {
    // Start-up is measured apart: the run starts once every worker is polling and the Lambda
    // containers are warm.
    while (ready < workers) await new Promise((r) => setTimeout(r, 20));
    await hub.warm;
    const t1 = performance.now();
    const started = await hub.upload(raster.path, {
      name: 'bench.tif',
      ...(raster.zoom === undefined ? {} : { job: { zoom: raster.zoom } }),
    });
    if (started.outcome !== 'started') throw new Error(`bench run did not start: ${JSON.stringify(started)}`);
    const execution = await hub.executions.wait(started.executionArn);
    const t2 = performance.now();
    if (execution.status !== 'SUCCEEDED')
      throw new Error(`bench run ended ${execution.status}: ${execution.cause}`);
    const tiles = await allManifestTiles(hub.store, started.runId);
    const run = await hub.ledger.getRun(started.runId);
    let bytes = 0;
    let objects = 0;
    // The tiles only: the run's mosaic and STAC documents sit under the same prefix.
    for await (const o of hub.store.list(tilesPrefix(started.runId))) {
      if (!o.key.endsWith('.tif')) continue;
      bytes += o.bytes;
      objects += 1;
    }
    // The stop alone: the figures above are the bench's own reads, not geohub's work.
    const tStop = performance.now();
    await hub.stop();
    const t3 = performance.now();
    return {
      startupSeconds: seconds(t1 - t0),
      runSeconds: seconds(t2 - t1),
      stopSeconds: seconds(t3 - tStop),
      tiles,
      zoom: Number(run?.params.zoom),
      tileBytes: bytes / objects,
      toolRuns,
    };
  } finally {
    await hub.stop();
  }
}

export async function benchOverhead(
  raster: BenchRaster,
  options: { workers: number; runs: number; dir: string },
): Promise<OverheadFigures> {
  const { workers, runs, dir } = options;
  // Round by round, each contender once per round: on a shared machine the load drifts, and
  // contenders timed one after the other would each meet a different load.
  const geohub = [await geohubRun(raster, workers)];
  const { tiles, zoom } = geohub[0]!;
  const exact: Awaited<ReturnType<typeof rawRun>>[] = [];
  const approx: Awaited<ReturnType<typeof rawRun>>[] = [];
  const g2t: Awaited<ReturnType<typeof gdal2tilesRun>>[] = [];
  const cli: Awaited<ReturnType<typeof geohubCliRun>>[] = [];
  const onUp: Awaited<ReturnType<typeof geohubCliRun>>[] = [];
  // A `geohub up` left running, as a user keeps one: its start is not timed, and while it idles
  // between its runs it only polls (its workers' long polls, the page's server).
  const up = await startUpDaemon(dir, workers);
  try {
    // Its first run warms it (the Lambda containers, the workers' engines): untimed, as the up's
    // own start is; an up a user keeps running has made such a run long before.
    await geohubCliRun(raster, zoom, workers, dir, up.env);
    const raw = raster.peers !== 'tiler';
    for (let round = 0; round < runs; round += 1) {
      if (round > 0) geohub.push(await geohubRun(raster, workers));
      if (raw) exact.push(await rawRun(raster, tiles, workers, dir, true));
      cli.push(await geohubCliRun(raster, zoom, workers, dir));
      onUp.push(await geohubCliRun(raster, zoom, workers, dir, up.env));
      if (raw) approx.push(await rawRun(raster, tiles, workers, dir, false));
      g2t.push(await gdal2tilesRun(raster, zoom, workers, dir));
    }
  } finally {
    await up.stop();
  }
  if (onUp[0]!.tiles !== tiles.length)
    throw new Error(
      `geohub run on a running up made ${onUp[0]!.tiles} tiles, the bench's run ${tiles.length}`,
    );
  if (cli[0]!.tiles !== tiles.length)
    throw new Error(`geohub run made ${cli[0]!.tiles} tiles, the bench's run ${tiles.length}`);

  const run = spread(geohub.map((g) => g.runSeconds));
  const withStartup = spread(cli.map((c) => c.seconds));
  const rawExact = exact.length > 0 ? spread(exact.map((r) => r.seconds)) : undefined;
  const rawDefault = approx.length > 0 ? spread(approx.map((r) => r.seconds)) : undefined;
  const gdal2tiles = { ...spread(g2t.map((r) => r.seconds)), tiles: g2t[0]!.tiles };
  return {
    raster: raster.label,
    tiles: tiles.length,
    zoom,
    workers,
    geohub: {
      run,
      withStartup,
      withUp: spread(onUp.map((c) => c.seconds)),
      startup: spread(geohub.map((g) => g.startupSeconds)),
      stop: spread(geohub.map((g) => g.stopSeconds)),
      toolRuns: geohub[0]!.toolRuns,
    },
    ...(rawExact && rawDefault ? { rawExact, rawDefault } : {}),
    gdal2tiles,
    transformer: 'approximate',
    ratios: {
      ...(rawExact && rawDefault
        ? {
            excludingStartup: ratio(run.median, rawDefault.median),
            includingStartup: ratio(withStartup.median, rawDefault.median),
            vsRawExact: ratio(run.median, rawExact.median),
          }
        : {}),
      vsGdal2tiles: ratio(run.median, gdal2tiles.median),
    },
    ...(exact[0]
      ? {
          bytesPerTile: {
            before: Math.round(exact[0].bytesPerTile),
            after: Math.round(geohub[0]!.tileBytes),
          },
        }
      : {}),
  };
}
