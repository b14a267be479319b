import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { approximationFigures } from '../support/approximation-check.js';
import { runCliLeavingNothing } from '../support/cli.js';
import { findFiles } from '../support/find-files.js';
import { maxPixelDifference, readTilePixels } from '../support/raster-pixels.js';
import { tempDir } from '../support/temp-dir.js';

const RGB = new URL('../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
/** RGB.byte.tif is 791 × 718 pixels of 300 m (UTM 18N). */
const [WIDTH, HEIGHT, SOURCE_RES] = [791, 718, 300];

interface Summary {
  runId: string;
  status: string;
  reason?: string;
  warnings?: string[];
  tiles: { total: number; done: number };
  collection?: { name: string; members: number; skipped: number };
}

const run = (args: string[]) => runCliLeavingNothing(['run', ...args]);

/** The raster cut by GDAL into four quarter files that do not overlap (odd sizes: unequal quarters). */
function quarters(dir: string): string[] {
  const [hw, hh] = [Math.floor(WIDTH / 2), Math.floor(HEIGHT / 2)];
  const windows = [
    [0, 0, hw, hh],
    [hw, 0, WIDTH - hw, hh],
    [0, hh, hw, HEIGHT - hh],
    [hw, hh, WIDTH - hw, HEIGHT - hh],
  ];
  return windows.map((w, i) => {
    const path = join(dir, `quarter-${i}.tif`);
    execFileSync('gdal_translate', ['-q', '-srcwin', ...w.map(String), RGB, path]);
    return path;
  });
}

const tilesIn = (out: string) =>
  findFiles(out, (n) => n.endsWith('.tif'))
    .map((f) => relative(out, f))
    .sort();

describe('geohub run over a collection: many files, one seamless run (issue 38)', () => {
  it('four quarter files make the whole raster’s tiles: pixel for pixel exact, within the approximation otherwise', async () => {
    const dir = tempDir('geohub-in-');
    const parts = join(dir, 'parts');
    execFileSync('mkdir', [parts]);
    quarters(parts);
    const exact = join(dir, 'exact.job.json');
    writeFileSync(exact, JSON.stringify({ transformer: 'exact' }));

    const whole = join(dir, 'whole');
    const w = await run([RGB, '--job', exact, '--out', whole, '--json']);
    expect(w.code, w.stderr).toBe(0);
    // The directory as the input: its four files, one run.
    const collected = join(dir, 'collected');
    const c = await run([parts, '--job', exact, '--out', collected, '--json']);
    expect(c.code, c.stderr).toBe(0);
    const summary = JSON.parse(c.stdout) as Summary;
    expect(summary.status).toBe('SUCCEEDED');
    // The progress and the summary say it is a collection, and of what.
    expect(c.stderr).toContain('geohub run: a collection of 4 files (parts), tiled as one seamless source');
    expect(summary.collection).toEqual({ name: 'parts', members: 4, skipped: 0 });

    // The same tiles, each equal pixel for pixel: a tile over a seam reads the quarters as one
    // raster (a VRT), so its bilinear kernel crosses the seam as it does inside the whole file.
    const tiles = tilesIn(whole);
    expect(tilesIn(collected)).toEqual(tiles);
    expect(tiles.length).toBe(summary.tiles.total);
    for (const tile of tiles) {
      const [a, b] = await Promise.all([
        readTilePixels(join(whole, tile)),
        readTilePixels(join(collected, tile)),
      ]);
      expect(maxPixelDifference(a, b), tile).toBe(0);
    }

    // One STAC collection for the run, its members (by file name, in order) as the sources.
    const stac = JSON.parse(readFileSync(join(collected, 'collection.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(stac['geohub:members']).toEqual([0, 1, 2, 3].map((i) => `quarter-${i}.tif`));
    expect(stac.description).toContain('a collection of 4 files');

    // The default (approximate) transformer over the same files, as several given files.
    const approx = join(dir, 'approx');
    const files = readdirSync(parts).map((f) => join(parts, f));
    const r = await run([...files, '--out', approx, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(tilesIn(approx)).toEqual(tiles);
    for (const tile of tiles) {
      const [ref, got] = await Promise.all([
        readTilePixels(join(whole, tile)),
        readTilePixels(join(approx, tile)),
      ]);
      const shift = 0.125 * Math.max(1, (1.2 * SOURCE_RES) / Math.abs(ref.geoTransform[1]!));
      const figures = approximationFigures(got, ref, shift);
      expect(figures.nodataAway, tile).toBe(0);
      expect(figures.beyond, tile).toBeLessThanOrEqual(figures.compared / 10_000);
    }
  });

  it('a corrupt member refuses the run in one line naming it, nothing started; --skip-unreadable runs the rest', async () => {
    const dir = tempDir('geohub-in-');
    const [a, b] = quarters(dir);
    const corrupt = join(dir, 'corrupt.tif');
    copyFileSync(b!, corrupt);
    // A GeoTIFF cut short inside its header: as a failed copy leaves one.
    execFileSync('truncate', ['-s', '300', corrupt]);
    const list = join(dir, 'survey.txt');
    writeFileSync(list, `# the survey\n${a}\n${corrupt}\n`);

    // The dry run says the same from the headers alone, and what the rest would make.
    const plan = await runCliLeavingNothing(['plan', list, '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    const planned = JSON.parse(plan.stdout) as {
      members: number;
      unreadable: { reason: string }[];
      tiles: number;
    };
    expect(planned.members).toBe(2);
    expect(planned.unreadable.map((u) => u.reason)).toEqual([
      expect.stringMatching(new RegExp(`^${corrupt}: `)),
    ]);
    expect(planned.tiles).toBeGreaterThan(0);

    const refused = await run([list, '--out', join(dir, 'refused'), '--json']);
    expect(refused.code).toBe(1);
    const failed = JSON.parse(refused.stdout) as Summary;
    expect(failed.status).toBe('FAILED');
    // Named by the user's path, with why; nothing was made.
    const lines = failed.reason!.split('\n');
    expect(lines[0]).toMatch(/1 of 2 members cannot be read; nothing was started/);
    expect(lines.slice(1)).toHaveLength(1);
    expect(lines[1]).toContain(corrupt);
    expect(lines[1]).not.toContain(a!);
    expect(failed.tiles.total).toBe(0);

    const skipped = await run([list, '--skip-unreadable', '--out', join(dir, 'skipped'), '--json']);
    expect(skipped.code, skipped.stderr).toBe(0);
    const ran = JSON.parse(skipped.stdout) as Summary;
    expect(ran.status).toBe('SUCCEEDED');
    expect(ran.collection).toMatchObject({ members: 1, skipped: 1 });
    expect(ran.tiles.done).toBe(ran.tiles.total);
    expect(ran.tiles.total).toBe(planned.tiles);
    expect(ran.warnings?.filter((w) => w.startsWith('member skipped:'))).toEqual([
      expect.stringContaining(corrupt),
    ]);
  });
});
