import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_GDAL_PYTHON } from '../../worker/metatile-command.js';
import { tempDir } from './temp-dir.js';

/**
 * A `gdalwarp` that ignores SIGTERM and never finishes, first on PATH and as the metatile
 * engine's interpreter (GEOHUB_GDAL_PYTHON): only the kill grace's SIGKILL to its process group
 * ends it. Before it loops it creates its outputs' `.part` files, as a real tool does (the
 * metatile spec's `"output"`s, or a `.part` argument), so a test can see them cleaned up.
 * Returns the environment that puts it in front.
 */
export function stubbornGdalwarp(): Record<string, string> {
  const bin = tempDir('geohub-stubborn-');
  const tool = join(bin, 'gdalwarp');
  writeFileSync(
    tool,
    [
      '#!/bin/bash',
      "trap '' TERM",
      'for a in "$@"; do',
      '  case "$a" in *.part) echo "$a" ;; esac',
      `  grep -o '"output":"[^"]*"' <<<"$a" | sed 's/^"output":"//; s/"$//'`,
      'done | while IFS= read -r f; do echo partial > "$f"; done',
      'while :; do sleep 1; done',
      '',
    ].join('\n'),
  );
  chmodSync(tool, 0o755);
  return { PATH: `${bin}:${process.env.PATH ?? ''}`, GEOHUB_GDAL_PYTHON: tool };
}

/**
 * The real metatile engine, behind an interpreter that first creates its outputs' `.part` files
 * (as the stubborn tool does), then execs Python with the same arguments: the engine itself writes
 * its outputs only once its warp is done, so without this a tool cut off mid-warp has no `.part`
 * to leave behind. A test can then wait for the `.part` and see it cleaned up. Returns the environment.
 */
export function partFirstEngine(python = DEFAULT_GDAL_PYTHON): Record<string, string> {
  const bin = tempDir('geohub-part-first-');
  const tool = join(bin, 'python');
  writeFileSync(
    tool,
    [
      '#!/bin/bash',
      'for a in "$@"; do',
      `  grep -o '"output":"[^"]*"' <<<"$a" | sed 's/^"output":"//; s/"$//'`,
      'done | while IFS= read -r f; do echo partial > "$f"; done',
      `exec ${python} "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(tool, 0o755);
  return { GEOHUB_GDAL_PYTHON: tool };
}
