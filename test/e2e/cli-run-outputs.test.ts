import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliLeavingNothing } from '../support/cli.js';
import { findFiles } from '../support/find-files.js';
import { tempDir } from '../support/temp-dir.js';

const RGB = new URL('../../examples/raster/RGB.byte.tif', import.meta.url).pathname;

interface Summary {
  runId: string;
  status: string;
  tiles: { total: number; done: number };
}

const run = (args: string[]) => runCliLeavingNothing(['run', ...args]);

describe('geohub run writes its outputs where it was told, and only there (issue 20)', () => {
  it('#11 #13 a 244-character file name runs, and its <file>.job.json sets the zoom', async () => {
    const dir = tempDir('geohub-in-');
    const input = join(dir, `${'n'.repeat(240)}.tif`);
    copyFileSync(RGB, input);
    writeFileSync(`${input}.job.json`, JSON.stringify({ zoom: 8 }));
    const out = join(dir, 'out');
    const r = await run([input, '--out', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as Summary;
    expect(summary.status).toBe('SUCCEEDED');
    // Zoom 8 from the sidecar (the native zoom, 9, would be 20 sub-tiles).
    const tiles = findFiles(out, (n) => n.endsWith('.tif'));
    expect(tiles.length).toBe(summary.tiles.total);
    expect(tiles.every((t) => t.startsWith(join(out, '8/')))).toBe(true);
  });

  it('#17 #7 a previous run is replaced only on request, with no stale tile; symlinks in --out are not followed', async () => {
    const dir = tempDir('geohub-in-');
    const out = join(dir, 'out');
    const first = await run([RGB, '--out', out, '--zoom', '8', '--json']);
    expect(first.code, first.stderr).toBe(0);
    const { runId } = JSON.parse(first.stdout) as Summary;

    // Again into the same directory: refused, naming the run, and nothing is touched.
    const again = await run([RGB, '--out', out, '--zoom', '8']);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(
      `geohub: --out ${out} holds the outputs of run ${runId}: pass --replace to replace them, or choose another directory`,
    );

    // Plant what a careless (or hostile) hand might: links out of --out and a stale tile.
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    rmSync(join(out, 'mosaic.vrt'));
    symlinkSync(victim, join(out, 'mosaic.vrt'));
    rmSync(join(out, '8'), { recursive: true });
    symlinkSync(elsewhere, join(out, '8'));
    mkdirSync(join(out, '12', '1'), { recursive: true });
    writeFileSync(join(out, '12', '1', '1.tif'), 'stale');

    const replaced = await run([RGB, '--out', out, '--zoom', '8', '--replace', '--json']);
    expect(replaced.code, replaced.stderr).toBe(0);
    const summary = JSON.parse(replaced.stdout) as Summary;
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(lstatSync(join(out, 'mosaic.vrt')).isSymbolicLink()).toBe(false);
    expect(lstatSync(join(out, '8')).isDirectory()).toBe(true);
    expect(existsSync(join(out, '12'))).toBe(false);
    const tiles = findFiles(out, (n) => n.endsWith('.tif'));
    expect(tiles.length).toBe(summary.tiles.total);
    expect(tiles.every((t) => t.startsWith(join(out, '8/')))).toBe(true);
  });
});
