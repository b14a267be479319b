import { execFile } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import proj4 from 'proj4';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyFailure } from '../../lib/operations/classify-failure.js';
import { PDAL_POINT_FORMATS, unreadableBy } from '../../lib/pointcloud/engine-point-formats.js';
import { ToolExitError } from '../../lib/process/errors.js';
import { isAlive } from '../../lib/process/process-table.js';
import { runProcess } from '../../lib/process/run-process.js';
import { expectTileRaster, gdalinfo, tileAt } from '../support/dtm-tile-checks.js';
import { groundGrid, lasBytes } from '../support/las-bytes.js';
import { dtmTile, realTools } from '../support/pdal-tile.js';
import { fileTempDir } from '../support/temp-dir.js';

const run = promisify(execFile);
const dir = fileTempDir('geohub-pdal-formats-');
const started: { file: string; pid: number }[] = [];
afterEach(() => expect(started.filter(({ pid }) => isAlive(pid))).toEqual([]));

/** Every point format each LAS version defines. */
const VERSIONS: Record<0 | 1 | 2 | 3 | 4, number[]> = {
  0: [0, 1],
  1: [0, 1],
  2: [0, 1, 2, 3],
  3: [0, 1, 2, 3, 4, 5],
  4: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
};
// 80 m of ground in UTM 10N, a z17 tile and more.
const points = groundGrid(500_000, 4_000_000, 41, 2);

async function pdalInfo(path: string): Promise<{ ok: true; points: number } | { ok: false; stderr: string }> {
  try {
    const { stdout } = await run('pdal', ['info', '--summary', path]);
    return { ok: true, points: JSON.parse(stdout).summary.num_points };
  } catch (error) {
    return { ok: false, stderr: String((error as { stderr?: string }).stderr ?? error) };
  }
}

describe('the point formats PDAL reads, measured, against the table the split refuses by', () => {
  it('LAS 1.0–1.4, every point format, as LAS and as LAZ: PDAL reads exactly PDAL_POINT_FORMATS', async () => {
    for (const [minor, formats] of Object.entries(VERSIONS)) {
      for (const format of formats) {
        const las = join(dir, `v1${minor}-f${format}.las`);
        writeFileSync(las, lasBytes({ minor: Number(minor) as 0, format, points, epsg: 32610 }));
        const info = await pdalInfo(las);
        const where = `LAS 1.${minor} format ${format}`;
        if (PDAL_POINT_FORMATS.has(format)) {
          expect(info, where).toEqual({ ok: true, points: points.length });
          // PDAL's own LAZ of it reads back whole.
          const laz = las.replace(/\.las$/, '.laz');
          await run('pdal', ['translate', las, laz]);
          expect(await pdalInfo(laz), `${where} LAZ`).toEqual({ ok: true, points: points.length });
        } else {
          expect(info.ok, where).toBe(false);
          const stderr = (info as { stderr: string }).stderr;
          // The reason the split gives is PDAL's own, word for word, and the worker's classifier
          // takes it for bad data (never retried to the dead-letter queue).
          expect(unreadableBy('pdal', 'las', format)).toContain(stderr.match(/readers\.las: [^\n]+/)![0]);
          expect(classifyFailure(new ToolExitError('pdal failed', 1, undefined, stderr))).toBe('data');
        }
      }
    }
  });

  it('the PDAL engine makes a DTM tile from LAS, LAZ and COPC of a readable format', async () => {
    const las = join(dir, 'ground-f6.las');
    writeFileSync(las, lasBytes({ minor: 4, format: 6, points, epsg: 32610 }));
    const laz = join(dir, 'ground-f6.laz');
    const copc = join(dir, 'ground-f6.copc.laz');
    // PDAL reads no CRS from GeoKeys in a format-6 file (LAS 1.4 wants WKT there): the copies
    // get it as WKT, written by PDAL as the format requires.
    await run('pdal', ['translate', las, laz, '--writers.las.a_srs=EPSG:32610']);
    await run('pdal', [
      'translate',
      las,
      copc,
      '--writer',
      'writers.copc',
      '--writers.copc.a_srs=EPSG:32610',
    ]);
    const [lon, lat] = proj4('EPSG:32610', 'EPSG:4326', [500_040, 4_000_040]) as [number, number];
    const { x, y } = tileAt(lon, lat, 17);
    for (const source of [las, laz, copc]) {
      const output = await dtmTile('pdal', source, { z: 17, x, y }, realTools(started));
      const info = await gdalinfo(output);
      expectTileRaster(info, 17, x, y);
      expect(Number(info.bands[0]!.metadata['']?.STATISTICS_VALID_PERCENT), source).toBeGreaterThan(1);
    }
  });

  it('a PDAL that cannot start (its library missing) is a clear tool error, retried, never taken for bad data', async () => {
    // The real binary without the library beside it: the loader refuses it as on a broken image.
    const { stdout } = await run('sh', ['-c', 'command -v pdal']);
    const lonely = join(dir, 'bin');
    await run('mkdir', ['-p', lonely]);
    copyFileSync(stdout.trim(), join(lonely, 'pdal'));
    await run('chmod', ['+x', join(lonely, 'pdal')]);
    const error = await runProcess(join(lonely, 'pdal'), ['--version'], {
      timeoutMs: 30_000,
      graceMs: 1_000,
    }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(ToolExitError);
    expect((error as ToolExitError).stderr).toMatch(/error while loading shared libraries: libpdalcpp/);
    expect(classifyFailure(error)).toBe('retryable');
  });
});
