import { chmodSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULT_GDAL_PYTHON } from '../../worker/metatile-command.js';
import { tempDir } from './temp-dir.js';

/**
 * Shell lines that give a stand-in for the metatile engine's interpreter its spec as the last
 * argument, as the engine accepts it. The worker runs the engine as `<interpreter>
 * warp-metatile.py --serve` and writes one spec a line (engine-pool.ts): the stand-in reads the
 * first line and goes on as a one-request tool, which the worker accepts when it exits 0. Without
 * `--serve` (no engine pool) the spec is all of stdin; a per-tile tool (stdin /dev/null) has its
 * arguments already.
 */
export const SPEC_AS_ARGUMENT = [
  'if [ "$2" = "--serve" ]; then',
  '  set -- "$1"; IFS= read -r spec; [ -n "$spec" ] && set -- "$@" "$spec"',
  'elif [ $# -le 1 ]; then spec=$(cat); [ -n "$spec" ] && set -- "$@" "$spec"; fi',
];

/**
 * Shell lines that create a tool's outputs' `.part` files, as a real tool opens them: the metatile
 * spec's `"output"`s, or a `.part` argument.
 */
const CREATE_PARTS = [
  ...SPEC_AS_ARGUMENT,
  'for a in "$@"; do',
  '  case "$a" in *.part) echo "$a" ;; esac',
  `  grep -o '"output":"[^"]*"' <<<"$a" | sed 's/^"output":"//; s/"$//'`,
  'done | while IFS= read -r f; do echo partial > "$f"; done',
];

/** A bash script named `name` in a temporary directory of the test's, made executable. */
function toolScript(prefix: string, name: string, body: readonly string[]): string {
  const tool = join(tempDir(prefix), name);
  writeFileSync(tool, ['#!/bin/bash', ...body, ''].join('\n'));
  chmodSync(tool, 0o755);
  return tool;
}

/**
 * A `gdalwarp` that ignores SIGTERM and never finishes, first on PATH and as the metatile
 * engine's interpreter (GEOHUB_GDAL_PYTHON): only the kill grace's SIGKILL to its process group
 * ends it. Before it loops it creates its outputs' `.part` files, as a real tool does, so a test
 * can see them cleaned up. Returns the environment that puts it in front.
 */
export function stubbornGdalwarp(): Record<string, string> {
  const tool = toolScript('geohub-stubborn-', 'gdalwarp', [
    "trap '' TERM",
    ...CREATE_PARTS,
    'while :; do sleep 1; done',
  ]);
  return { PATH: `${dirname(tool)}:${process.env.PATH ?? ''}`, GEOHUB_GDAL_PYTHON: tool };
}

/**
 * The real metatile engine, behind an interpreter that first creates its outputs' `.part` files,
 * then execs Python with the same arguments: the engine itself writes its outputs only once its
 * warp is done, so without this a tool cut off mid-warp has no `.part` to leave behind. A test can
 * then wait for the `.part` and see it cleaned up. Returns the environment.
 */
export function partFirstEngine(python = DEFAULT_GDAL_PYTHON): Record<string, string> {
  return {
    GEOHUB_GDAL_PYTHON: toolScript('geohub-part-first-', 'python', [...CREATE_PARTS, `exec ${python} "$@"`]),
  };
}
