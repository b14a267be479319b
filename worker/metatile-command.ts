import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolCommand } from '../lib/pointcloud/extractor-command.js';

/**
 * The interpreter that runs GDAL's Python bindings. Debian's python3-gdal installs them for the
 * system interpreter only; a pyenv or virtualenv `python3` earlier on PATH lacks them, so the
 * default is the system one by its full path (GEOHUB_GDAL_PYTHON overrides it: the worker image
 * sets its conda environment's).
 */
export const DEFAULT_GDAL_PYTHON = '/usr/bin/python3';

/**
 * The directory of the nearest package.json above this module: the repository from the sources
 * or dist/, the bundle's own directory in the worker image (the bundle carries a package.json).
 * Not local/project-root.ts: the worker bundle holds nothing of local/.
 */
function packageRoot(from: string): string {
  let dir = dirname(fileURLToPath(from));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/**
 * How the worker runs its metatile engine: the interpreter and the script shipped at
 * worker/tools/warp-metatile.py (copied next to the worker bundle by scripts/bundle-worker.mjs).
 * The spec is appended as one more argv element.
 */
export function metatileCommand(python: string, root: string = packageRoot(import.meta.url)): ToolCommand {
  return { file: python, args: [join(root, 'worker', 'tools', 'warp-metatile.py')] };
}
