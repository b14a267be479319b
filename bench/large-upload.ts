/**
 * `npm run bench:large`: a valid raster larger than 4 GB through `geohub run` (multipart upload
 * with its progress, then the run), stating the upload time and the CLI's peak memory. Slow
 * (minutes, about 20 GB of temporary disk): not part of `npm run bench` nor of CI, whose short
 * version is test/e2e/cli-large-upload.test.ts.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../local/project-root.js';
import { largeRaster } from '../test/support/large-raster.js';

const root = projectRoot();
const side = Number(process.argv[2] ?? 46_400); // 2 bytes a pixel: 4.3 GB
const log = (s: string) => process.stderr.write(`bench:large: ${s}\n`);
const dir = mkdtempSync(join(tmpdir(), 'geohub-bench-large-'));

/** Peak resident memory of a live process, in MiB (VmHWM). */
function peakMiB(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

try {
  log(`creating a ${side}² UInt16 GeoTIFF with overviews…`);
  const file = largeRaster(dir, side);
  const bytes = statSync(file).size;
  log(`${(bytes / 1024 ** 3).toFixed(2)} GiB; geohub run --zoom 6…`);
  const cli = spawn(
    process.execPath,
    [join(root, 'bin/geohub.js'), 'run', file, '--out', join(dir, 'out'), '--zoom', '6', '--json'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let peak = 0;
  const poll = setInterval(() => {
    try {
      peak = Math.max(peak, peakMiB(cli.pid!));
    } catch {
      // exited
    }
  }, 200);
  let stdout = '';
  cli.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  const code = await new Promise<number | null>((r) => cli.once('close', r));
  clearInterval(poll);
  const summary = JSON.parse(stdout) as { status: string; durationMs: number; upload: { seconds: number } };
  const result = {
    at: new Date().toISOString(),
    bytes,
    exitCode: code,
    status: summary.status,
    uploadSeconds: summary.upload.seconds,
    uploadMiBps: bytes / 1024 ** 2 / summary.upload.seconds,
    runSeconds: summary.durationMs / 1000,
    cliPeakRssMiB: Math.round(peak),
  };
  mkdirSync(join(root, '.bench'), { recursive: true });
  writeFileSync(join(root, '.bench/large-upload.json'), `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  if (code !== 0) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
