/** The two runs geohub is compared with, timed the same way (wall clock of the whole command). */
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { findFiles } from '../lib/fs/find-files.js';
import type { TileTask } from '../lib/model/tile.js';
import { rasterXyzArgs } from '../lib/operations/raster-xyz.js';
import type { BenchRaster } from './sources.js';

const seconds = (ms: number) => Math.round(ms) / 1000;

/** `xargs -P <workers> gdalwarp` over the tiles' windows: the worker's former per-tile argv. */
export async function rawRun(
  raster: BenchRaster,
  tiles: readonly TileTask[],
  workers: number,
  dir: string,
  exact: boolean,
) {
  const out = join(dir, exact ? 'raw-exact' : 'raw-default');
  rmSync(out, { recursive: true, force: true });
  const lines = tiles.map((tile) => {
    const args = rasterXyzArgs({
      source: raster.path,
      tile,
      params: { resampling: 'bilinear', transformer: exact ? 'exact' : 'approximate' },
      output: join(out, `${tile.z}-${tile.x}-${tile.y}.tif`),
      scratch: out,
    });
    // The default as a user types it: no -et at all (GDAL's 0.125, geohub's default too).
    const et = args.indexOf('-et');
    return (exact ? args : [...args.slice(0, et), ...args.slice(et + 2)]).join(' ');
  });
  mkdirSync(out, { recursive: true });
  const list = join(dir, 'invocations.txt');
  writeFileSync(list, `${lines.join('\n')}\n`);
  const t0 = performance.now();
  await execa('xargs', ['-P', String(workers), '-L', '1', 'gdalwarp'], { inputFile: list });
  const elapsed = seconds(performance.now() - t0);
  const files = readdirSync(out);
  const bytes = files.reduce((n, f) => n + statSync(join(out, f)).size, 0) / files.length;
  rmSync(out, { recursive: true, force: true });
  return { seconds: elapsed, bytesPerTile: bytes };
}

/**
 * GDAL's own tiler at the same zoom, as its users run it (PNG, no web viewer). It tiles 8-bit
 * rasters only; any other type goes through the scaling VRT it asks for (its reads do the scaling).
 */
export async function gdal2tilesRun(raster: BenchRaster, zoom: number, workers: number, dir: string) {
  const out = join(dir, 'gdal2tiles');
  rmSync(out, { recursive: true, force: true });
  const info = JSON.parse((await execa('gdalinfo', ['-json', raster.path])).stdout) as {
    bands: { type: string }[];
  };
  let input = raster.path;
  if (info.bands.some((b) => b.type !== 'Byte')) {
    input = join(dir, 'gdal2tiles-byte.vrt');
    await execa('gdal_translate', ['-q', '-of', 'VRT', '-ot', 'Byte', '-scale', raster.path, input]);
  }
  const t0 = performance.now();
  await execa('gdal2tiles.py', [
    ...['--xyz', '-z', String(zoom), `--processes=${workers}`, '-r', 'bilinear', '-w', 'none', '-q'],
    input,
    out,
  ]);
  const elapsed = seconds(performance.now() - t0);
  const tiles = findFiles(out, (n) => n.endsWith('.png')).length;
  rmSync(out, { recursive: true, force: true });
  return { seconds: elapsed, tiles };
}
