import { execFileSync } from 'node:child_process';
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const SHADE = new URL('../../examples/raster/shade.tif', import.meta.url).pathname;
const RGB = new URL('../../examples/raster/RGB.byte.tif', import.meta.url).pathname;

/**
 * A GeoTIFF that keeps GDAL busy for seconds per tile: shade.tif upsampled `scale`× (20×: 20480²,
 * under 1 MB compressed, 1–2 s to warp into one zoom-12 tile on a warm engine; 40×: 40960², 3 MB,
 * about 9 s, and 10 s to make), warped at zoom 12/13. Written into `dir` (the caller's temporary
 * directory, e.g. tempDir()).
 */
export function slowGeoTiff(dir: string, scale = 20): string {
  const out = join(dir, 'slow.tif');
  execFileSync('gdal_translate', [
    '-q',
    '-outsize',
    `${scale * 100}%`,
    `${scale * 100}%`,
    '-r',
    'bilinear',
    '-co',
    'COMPRESS=DEFLATE',
    '-co',
    'TILED=YES',
    SHADE,
    out,
  ]);
  return out;
}

/**
 * A COG whose header is intact (split plans it normally) but whose compressed blocks are
 * garbage from 40 % of the file on: most tiles fail to decode. Returns it and a good copy, both
 * in `dir`.
 */
export function poisonedCog(dir: string): { poisoned: string; good: string } {
  const good = join(dir, 'good.tif');
  const poisoned = join(dir, 'poisoned.tif');
  execFileSync('gdal_translate', ['-q', '-of', 'COG', '-co', 'COMPRESS=DEFLATE', RGB, good]);
  execFileSync('cp', [good, poisoned]);
  const size = statSync(poisoned).size;
  const fd = openSync(poisoned, 'r+');
  const junk = Buffer.alloc(size - Math.floor(size * 0.4), 0x5a);
  writeSync(fd, junk, 0, junk.length, Math.floor(size * 0.4));
  closeSync(fd);
  return { poisoned, good };
}
