import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { findFiles } from '../lib/fs/find-files.js';
import { projectRoot } from '../local/project-root.js';
import type { BenchRaster } from './sources.js';

/**
 * `geohub run` as a user runs it — the built CLI, from the command to its exit: the local stack's
 * start, upload, split, workers, finalize, the copy into --out and the stop. This is the
 * "including start-up" figure; nothing of it is left out. Or, given a running `geohub up`, the
 * command a user types then: the file through its API, the run there, the outputs copied back.
 */
export async function geohubCliRun(
  raster: BenchRaster,
  /** One level, or a pyramid's range "min-max". */
  zoom: number | string,
  workers: number,
  dir: string,
  /** A running `geohub up` to use (up-daemon.ts); without it, a private stack, whatever the user runs. */
  up?: Readonly<Record<string, string>>,
  /** More environment for the command (the start-up profile's GEOHUB_PROFILE). */
  extraEnv: Readonly<Record<string, string>> = {},
  /** A job sidecar (`--job`): display tiles for the pyramid bench. */
  job?: string,
): Promise<{ seconds: number; tiles: number }> {
  const out = join(dir, 'geohub-cli');
  rmSync(out, { recursive: true, force: true });
  const bin = join(projectRoot(), 'bin', 'geohub.js');
  const args = [
    'run',
    raster.path,
    '--zoom',
    String(zoom),
    '--workers',
    String(workers),
    '--out',
    out,
    ...(job ? ['--job', job] : []),
    '--json',
  ];
  const t0 = performance.now();
  await execa(process.execPath, [bin, ...args], {
    env: {
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...(up ?? { GEOHUB_STANDALONE: '1' }),
      ...extraEnv,
    },
  });
  const seconds = Math.round(performance.now() - t0) / 1000;
  const tiles = findFiles(out, (n) => /^\d+\.(tif|png|webp)$/.test(n)).length;
  rmSync(out, { recursive: true, force: true });
  return { seconds, tiles };
}
