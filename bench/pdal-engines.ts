/**
 * The point-cloud engines side by side (issue 37): one DTM tile at a time, as a worker makes it
 * (the extractor's probe, then one `pdal pipeline`; or the extractor's points, then gdal_grid),
 * timed per tile and per million points of the source, on autzen_trim.laz and on a synthetic
 * unclassified dense cloud at a coarse zoom: the split's sizing at its worst (every point in one
 * sub-tile, ground found by SMRF). The sizing's assumed rate (POINTS_PER_SECOND) is checked
 * against the measured one: a sub-tile sized to the 30 s budget must fit it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPointcloudDtm } from '../lib/operations/pointcloud-dtm.js';
import { runProcess } from '../lib/process/run-process.js';
import { METATILE_BUDGET_SECONDS, metatileSize, POINTS_PER_SECOND } from '../lib/split/metatile-size.js';
import { tilesOver } from '../test/support/pdal-tile.js';
import { repeat, type Spread, spread } from './support/stats.js';

export interface EngineFigures {
  readonly label: string;
  readonly points: number;
  readonly zoom: number;
  readonly tiles: number;
  /** The whole set of tiles, one after the other: seconds. */
  readonly pdalSeconds: Spread;
  readonly localSeconds: Spread;
  /** Seconds per tile and per million source points, from the medians. */
  readonly pdalPerTile: number;
  readonly localPerTile: number;
  readonly pdalPerMillion: number;
  readonly localPerMillion: number;
}

export interface PdalBench {
  readonly pdalVersion: string;
  readonly inputs: readonly EngineFigures[];
  /** The sizing's worst case: one sub-tile holding every point of the synthetic cloud. */
  readonly sizing: {
    readonly assumedPointsPerSecond: number;
    /** The cloud's points over one sub-tile's measured seconds (its start-up included). */
    readonly measuredPointsPerSecond: number;
    /** What metatileSize planned for that cloud: sub-tiles per message, and seconds per sub-tile. */
    readonly tilesPerMessage: number;
    readonly predictedSecondsPerTile: number;
    readonly measuredSecondsPerTile: number;
    /** The planned metatile at the measured pace: must fit the budget. */
    readonly metatileSeconds: number;
    readonly budgetSeconds: number;
  };
}

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

/** An unclassified cloud of `count` random points over 300 m × 300 m in UTM 10N (LAS 1.4, WKT). */
function syntheticCloud(dir: string, count: number): string {
  const out = join(dir, `synthetic-${count}.laz`);
  const pipeline = join(dir, 'faux.json');
  writeFileSync(
    pipeline,
    JSON.stringify({
      pipeline: [
        {
          type: 'readers.faux',
          mode: 'random',
          count,
          bounds: '([500000,500300],[4900000,4900300],[100,112])',
        },
        {
          type: 'writers.las',
          filename: out,
          compression: 'laszip',
          a_srs: 'EPSG:26910',
          minor_version: 4,
          dataformat_id: 6,
          scale_x: 0.01,
          scale_y: 0.01,
          scale_z: 0.01,
          offset_x: 500000,
          offset_y: 4900000,
          offset_z: 0,
        },
      ],
    }),
  );
  execFileSync('pdal', ['pipeline', pipeline], { stdio: ['ignore', 'ignore', 'inherit'] });
  return out;
}

async function tilesOnce(engine: 'pdal' | 'local', source: string, zoom: number, dir: string) {
  const operation = createPointcloudDtm({ engine });
  const tools = {
    run: (file: string, args: readonly string[]) =>
      runProcess(file, args, { timeoutMs: 600_000, graceMs: 2_000 }),
  };
  const started = performance.now();
  for (const { x, y } of tilesOver(source, zoom)) {
    const scratch = mkdtempSync(join(dir, `${engine}-`));
    await operation.execute(
      {
        source,
        tile: { id: '00000000000000aa', z: zoom, x, y },
        params: { zoom },
        output: join(scratch, `${y}.tif.0a1b2c3d.part`),
        scratch,
      },
      tools,
    );
    rmSync(scratch, { recursive: true, force: true });
  }
  return (performance.now() - started) / 1000;
}

async function engines(
  label: string,
  source: string,
  points: number,
  zoom: number,
  runs: number,
  dir: string,
) {
  const tiles = tilesOver(source, zoom).length;
  const pdal = spread(await repeat(runs, () => tilesOnce('pdal', source, zoom, dir)));
  const local = spread(await repeat(runs, () => tilesOnce('local', source, zoom, dir)));
  return {
    label,
    points,
    zoom,
    tiles,
    pdalSeconds: pdal,
    localSeconds: local,
    pdalPerTile: round(pdal.median / tiles),
    localPerTile: round(local.median / tiles),
    pdalPerMillion: round(pdal.median / (points / 1e6)),
    localPerMillion: round(local.median / (points / 1e6)),
  };
}

/** Runs with the `pdal` on PATH (the caller puts it there). */
export async function benchPdalEngines(root: string, runs: number, quick: boolean): Promise<PdalBench> {
  const dir = mkdtempSync(join(tmpdir(), 'geohub-pdal-bench-'));
  try {
    const pdalVersion =
      execFileSync('pdal', ['--version'], { encoding: 'utf8' }).match(/pdal (\S+)/)?.[1] ?? '?';
    const autzen = join(root, 'examples/pointcloud/autzen_trim.laz');
    const count = quick ? 300_000 : 3_000_000;
    const synthetic = syntheticCloud(dir, count);
    // Zoom 15: a tile of ~850 m at 44° N over a 300 m cloud: every point in one sub-tile.
    const dense = await engines(
      `synthetic unclassified ${count / 1e6} M points, 300 m square`,
      synthetic,
      count,
      15,
      runs,
      dir,
    );
    const inputs = [
      await engines('autzen_trim.laz (110,000 points, classified)', autzen, 110_000, 17, runs, dir),
      dense,
    ];
    const perTile = dense.pdalSeconds.median / dense.tiles;
    // The split's own sizing of that cloud (a plain LAZ: every sub-tile reads it whole).
    const planned = metatileSize(
      {
        kind: 'pointcloud',
        format: 'laz',
        bytes: statSync(synthetic).size,
        version: '1.4',
        pointFormat: 6,
        pointCount: count,
        scale: [0.01, 0.01, 0.01],
        offset: [500_000, 4_900_000, 0],
        bbox: [500_000, 4_900_000, 500_300, 4_900_300],
        zRange: [100, 112],
        crs: undefined,
      },
      // Its footprint in EPSG:3857 (UTM 10N 500000–500300 E, 4900000–4900300 N).
      { zoom: 15, bbox3857: [-13_692_297, 5_504_715, -13_691_879, 5_505_135] },
    );
    return {
      pdalVersion,
      inputs,
      sizing: {
        assumedPointsPerSecond: POINTS_PER_SECOND,
        measuredPointsPerSecond: Math.round(count / perTile),
        tilesPerMessage: planned.tilesPerMessage,
        predictedSecondsPerTile: round(planned.secondsPerTile, 2),
        measuredSecondsPerTile: round(perTile, 2),
        metatileSeconds: round(planned.tilesPerMessage * perTile, 1),
        budgetSeconds: METATILE_BUDGET_SECONDS,
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
