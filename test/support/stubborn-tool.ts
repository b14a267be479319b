import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
