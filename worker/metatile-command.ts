import { join } from 'node:path';
import type { ToolCommand } from '../lib/pointcloud/extractor-command.js';
import { projectRoot } from '../local/project-root.js';

/**
 * The interpreter that runs GDAL's Python bindings. Debian's python3-gdal installs them for the
 * system interpreter only; a pyenv or virtualenv `python3` earlier on PATH lacks them, so the
 * default is the system one by its full path (GEOHUB_GDAL_PYTHON overrides it, e.g. for conda).
 */
export const DEFAULT_GDAL_PYTHON = '/usr/bin/python3';

/**
 * How the worker runs its metatile engine: the interpreter and the script shipped in the
 * repository (and copied into the worker image) at worker/tools/warp-metatile.py. The spec is
 * appended as one more argv element.
 */
export function metatileCommand(python: string, root: string = projectRoot(import.meta.url)): ToolCommand {
  return { file: python, args: [join(root, 'worker', 'tools', 'warp-metatile.py')] };
}
