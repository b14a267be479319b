import { execFileSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';

/** What a figure was measured on, printed and saved with it. */
export function machine() {
  const gdal = execFileSync('gdalinfo', ['--version'], { encoding: 'utf8' }).trim();
  return {
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    gdal,
  };
}
