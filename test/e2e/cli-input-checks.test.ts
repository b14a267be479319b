import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliResult, runCli } from '../support/cli.js';
import { processMark } from '../support/marked-processes.js';
import { tempDir } from '../support/temp-dir.js';

const RGB = new URL('../../examples/raster/RGB.byte.tif', import.meta.url).pathname;

/** Runs the CLI with its own temp dir and process mark; afterwards nothing of it may remain. */
async function cli(args: string[]): Promise<CliResult & { tmp: string }> {
  const tmp = tempDir('geohub-checks-');
  const mark = processMark();
  const r = await runCli(args, { ...mark.env, TMPDIR: tmp });
  expect(mark.live()).toEqual([]);
  expect(readdirSync(tmp)).toEqual([]);
  return { ...r, tmp };
}

/** One line, no stack trace, no progress: refused before anything started. */
function refused(r: CliResult, message: RegExp): void {
  expect(r.code, r.stderr).toBe(1);
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at |running:|uploading:/);
  expect(r.stdout).toBe('');
}

describe('geohub run checks its input before anything starts (issue 20)', () => {
  it('#2 a directory without a source file is one clear line, not EISDIR with Java left running', async () => {
    // A directory is a collection (issue 38): its GeoTIFF and LAS/LAZ files, none here.
    const dir = tempDir('geohub-in-');
    writeFileSync(join(dir, 'notes.txt'), 'not a raster');
    refused(
      await cli(['run', dir, '--out', join(dir, 'out')]),
      /^geohub: .* holds no GeoTIFF or LAS\/LAZ file$/,
    );
    // Among several inputs, a directory is refused as an input file.
    refused(
      await cli(['run', dir, join(dir, 'notes.txt'), '--out', join(dir, 'out')]),
      /^geohub: cannot read .*: it is a directory, not a regular file$/,
    );
  });

  it('#6 a FIFO as input is refused at once instead of hanging', async () => {
    const dir = tempDir('geohub-in-');
    const fifo = join(dir, 'pipe.tif');
    execFileSync('mkfifo', [fifo]);
    refused(
      await cli(['run', fifo, '--out', join(dir, 'out')]),
      /^geohub: cannot read .*pipe\.tif: it is a FIFO \(named pipe\), not a regular file$/,
    );
  });

  it('#2 #6 plan refuses a directory without sources and a FIFO as run does, without blocking', async () => {
    const dir = tempDir('geohub-in-');
    const fifo = join(dir, 'pipe.laz');
    execFileSync('mkfifo', [fifo]);
    // A directory is a collection: its regular GeoTIFF and LAS/LAZ files (a FIFO is none).
    refused(await cli(['plan', dir]), /^geohub: .* holds no GeoTIFF or LAS\/LAZ file$/);
    refused(
      await cli(['plan', fifo]),
      /^geohub: cannot read .*pipe\.laz: it is a FIFO \(named pipe\), not a regular file$/,
    );
  });

  it('#13 /dev/zero names the cause (a device), not "write ECONNRESET"', async () => {
    const dir = tempDir('geohub-in-');
    refused(
      await cli(['run', '/dev/zero', '--out', join(dir, 'out')]),
      /^geohub: cannot read \/dev\/zero: it is a character device, not a regular file$/,
    );
  });

  it('#13 plan names a local file by its path, not as s3:///…', async () => {
    const dir = tempDir('geohub-in-');
    const bad = join(dir, 'bad.tif');
    writeFileSync(bad, 'II*\0 not really a tiff');
    const r = await cli(['plan', bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`geohub: ${bad}`);
    expect(r.stderr).not.toContain('s3://');
  });

  it('#8 --out "" is refused instead of writing into the current directory', async () => {
    const cwd = tempDir('geohub-cwd-');
    copyFileSync(RGB, join(cwd, 'in.tif'));
    const r = await runCli(['run', join(cwd, 'in.tif'), '--out', ''], {}, { cwd });
    refused(r, /^geohub: --out is empty: name the directory for the outputs$/);
    expect(readdirSync(cwd)).toEqual(['in.tif']);
  });

  it('#9 --out that is a file or / is refused before the run, also with --json', async () => {
    const dir = tempDir('geohub-in-');
    const file = join(dir, 'a-file');
    writeFileSync(file, 'mine');
    refused(
      await cli(['run', RGB, '--out', file, '--json']),
      /^geohub: --out .*a-file exists and is not a directory$/,
    );
    refused(await cli(['run', RGB, '--out', '/']), /^geohub: --out is \/: name a directory of its own/);
  });

  it('#9 --out that cannot be written is refused before the run (as an unprivileged user)', () => {
    // root writes anywhere whatever the mode bits; `nobody` meets them, as a user would.
    const dir = tempDir('geohub-in-');
    chmodSync(dir, 0o755);
    const readOnly = join(dir, 'read-only');
    mkdirSync(readOnly, { mode: 0o555 });
    const script = 'node bin/geohub.js run "$0" --out "$1" 2>&1; echo "exit=$?"';
    const out = execFileSync('runuser', ['-u', 'nobody', '--', 'sh', '-c', script, RGB, readOnly], {
      cwd: new URL('../..', import.meta.url).pathname,
      encoding: 'utf8',
    });
    expect(out.trim().split('\n')).toEqual([
      expect.stringMatching(/^geohub: --out .*read-only is not writable \(EACCES\)$/),
      'exit=1',
    ]);
    expect(readdirSync(readOnly)).toEqual([]);
  });

  it('#12 numbers are whole decimal numbers: 0x10, "", 1e1 and 1.5 are refused', async () => {
    // A zoom is a level or a pyramid's range, low to high: every other spelling is refused.
    for (const zoom of ['0x10', '', '1e1', '1.5', '-1', ' 9', '9-6', '3-23', '3-']) {
      const r = await runCli(['run', RGB, '--out', tempDir('geohub-out-'), '--zoom', zoom]);
      expect(r.code, zoom).toBe(1);
      expect(r.stderr, zoom).toContain(
        'expected a zoom level from 0 to 22, or a range min-max such as 10-17',
      );
    }
    const workers = await runCli(['run', RGB, '--out', tempDir('geohub-out-'), '--workers', '0x2']);
    expect(workers.stderr).toContain('expected a whole number from 1 to 32');
    // geohub cost's decimals and GEOHUB_PORT as strictly (they went through Number()).
    for (const args of [
      ['--on-demand', '0x10'],
      ['--job-minutes', '1e1'],
      ['--spot-ratio', ''],
    ]) {
      const r = await runCli(['cost', ...args]);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toContain('expected a positive decimal number such as 0.5');
    }
    const rates = await runCli(['cost', '--rates', '0x0,1e-1']);
    expect([rates.code, rates.stderr.trim()]).toEqual([
      1,
      'geohub: --rates takes decimal numbers in [0, 1), comma-separated, such as 0.02,0.05',
    ]);
    expect((await runCli(['cost', '--on-demand', '0.5', '--rates', '0.1', '--json'])).code).toBe(0);
    const port = await runCli(['status'], { GEOHUB_PORT: '0x10' });
    expect([port.code, port.stderr.trim()]).toEqual([
      1,
      'geohub: GEOHUB_PORT=0x10: expected a whole number from 1 to 65535',
    ]);
  });

  it('#11 a local <file>.job.json is read (an invalid one is refused with its path)', async () => {
    const dir = tempDir('geohub-in-');
    const input = join(dir, 'in.tif');
    copyFileSync(RGB, input);
    writeFileSync(`${input}.job.json`, JSON.stringify({ zoom: 40 }));
    refused(
      await cli(['run', input, '--out', join(dir, 'out')]),
      /^geohub: .*in\.tif\.job\.json is not a valid job: zoom: /,
    );
  });

  it('#16 a sidecar is sized before it is read: a 50 MB --job is refused at once', async () => {
    const dir = tempDir('geohub-in-');
    const big = join(dir, 'big.job.json');
    writeFileSync(big, '');
    truncateSync(big, 50 * 1024 * 1024);
    refused(
      await cli(['run', RGB, '--out', join(dir, 'out'), '--job', big]),
      /^geohub: .*big\.job\.json is 52428800 bytes; a job sidecar is at most 4096$/,
    );
  });

  it('#5 a 50 GB sparse file is refused before anything is copied (the stand-in would write all of it)', async () => {
    const dir = tempDir('geohub-in-');
    const sparse = join(dir, 'sparse.tif');
    writeFileSync(sparse, '');
    truncateSync(sparse, 50 * 1024 ** 3);
    refused(
      await cli(['run', sparse, '--out', join(dir, 'out')]),
      /^geohub: .*sparse\.tif is a sparse file \(50\.0 GB, 0\.0 GB of it on disk\): the local stack would copy all 50\.0 GB/,
    );
  });

  it('#17 a non-empty --out that holds no geohub outputs is refused', async () => {
    const dir = tempDir('geohub-in-');
    const out = join(dir, 'out');
    mkdirSync(out);
    writeFileSync(join(out, 'notes.txt'), 'mine');
    refused(
      await cli(['run', RGB, '--out', out]),
      /^geohub: --out .*out is not empty and holds no geohub outputs/,
    );
    expect(readdirSync(out)).toEqual(['notes.txt']);
  });
});
