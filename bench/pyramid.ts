/**
 * A full pyramid against GDAL's own tiler on its default job (issue 39): `gdal2tiles.py
 * --processes=<workers>` with every default (its zoom range, average resampling, PNG, its web
 * viewers), and `geohub run` of the same raster over the same levels as PNG display tiles (the
 * base warped, each lower level made from the one above, plus a PMTiles archive, mosaics and
 * STAC). Both whole commands, wall clock, alternated run by run; reported per 1,000 tiles.
 */
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { findFiles } from '../lib/fs/find-files.js';
import { geohubCliRun } from './geohub-cli-run.js';
import type { BenchRaster } from './sources.js';
import { type Spread, spread } from './support/stats.js';

export interface PyramidFigures {
  readonly job: string;
  /** The levels gdal2tiles.py chose by default, and geohub was given. */
  readonly zooms: string;
  readonly tiles: { readonly geohub: number; readonly gdal2tiles: number };
  readonly seconds: { readonly geohub: Spread; readonly gdal2tiles: Spread };
  /** Seconds per 1,000 tiles, from the medians. */
  readonly perThousand: { readonly geohub: number; readonly gdal2tiles: number };
  /** geohub's median over gdal2tiles.py's: at most 1.0 is the goal. */
  readonly ratio: number;
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** gdal2tiles.py's default job, whole: the levels it made and its tiles. */
async function gdal2tilesDefault(raster: BenchRaster, workers: number, dir: string) {
  const out = join(dir, 'gdal2tiles-default');
  rmSync(out, { recursive: true, force: true });
  const t0 = performance.now();
  await execa('gdal2tiles.py', ['--xyz', `--processes=${workers}`, '-q', raster.path, out]);
  const seconds = Math.round(performance.now() - t0) / 1000;
  const zooms = readdirSync(out)
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .sort((a, b) => a - b);
  const tiles = findFiles(out, (n) => n.endsWith('.png')).length;
  rmSync(out, { recursive: true, force: true });
  return { seconds, tiles, zooms: `${zooms[0]}-${zooms.at(-1)}` };
}

export async function benchPyramid(
  raster: BenchRaster,
  options: { readonly workers: number; readonly runs: number; readonly dir: string },
): Promise<PyramidFigures> {
  const job = join(options.dir, 'pyramid.job.json');
  writeFileSync(job, JSON.stringify({ format: 'png' }));
  const peer: Awaited<ReturnType<typeof gdal2tilesDefault>>[] = [];
  const ours: { seconds: number; tiles: number }[] = [];
  for (let i = 0; i < options.runs; i++) {
    peer.push(await gdal2tilesDefault(raster, options.workers, options.dir));
    ours.push(await geohubCliRun(raster, peer[0]!.zooms, options.workers, options.dir, undefined, {}, job));
  }
  const seconds = {
    geohub: spread(ours.map((r) => r.seconds)),
    gdal2tiles: spread(peer.map((r) => r.seconds)),
  };
  const tiles = { geohub: ours[0]!.tiles, gdal2tiles: peer[0]!.tiles };
  return {
    job: raster.label,
    zooms: peer[0]!.zooms,
    tiles,
    seconds,
    perThousand: {
      geohub: round((seconds.geohub.median / tiles.geohub) * 1000),
      gdal2tiles: round((seconds.gdal2tiles.median / tiles.gdal2tiles) * 1000),
    },
    ratio: round(seconds.geohub.median / seconds.gdal2tiles.median),
  };
}
