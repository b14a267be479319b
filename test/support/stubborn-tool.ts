import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dir.js';

/**
 * A `gdalwarp` that ignores SIGTERM and never finishes, first on PATH and as the metatile
 * engine's interpreter (GEOHUB_GDAL_PYTHON): only the kill grace's SIGKILL to its process group
 * ends it. Returns the environment that puts it in front.
 */
export function stubbornGdalwarp(): Record<string, string> {
  const bin = tempDir('geohub-stubborn-');
  const tool = join(bin, 'gdalwarp');
  writeFileSync(tool, "#!/bin/bash\ntrap '' TERM\nwhile :; do sleep 1; done\n");
  chmodSync(tool, 0o755);
  return { PATH: `${bin}:${process.env.PATH ?? ''}`, GEOHUB_GDAL_PYTHON: tool };
}
