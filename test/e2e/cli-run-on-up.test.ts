import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from '../support/cli.js';
import { findFiles } from '../support/find-files.js';
import { processMark } from '../support/marked-processes.js';
import { slowGeoTiff } from '../support/raster-fixtures.js';
import { tempDir } from '../support/temp-dir.js';
import { gdalTileCover } from '../support/tile-oracle.js';
import { startUp, type UpSession } from '../support/up-session.js';
import { waitUntil } from '../support/wait-until.js';

const RGB = new URL('../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'geohub-up-tmp-'));
const upMark = processMark();
let up: UpSession;
beforeAll(async () => {
  up = await startUp({ ...upMark.env, TMPDIR: tmp });
});
afterAll(async () => {
  up?.child.kill('SIGINT');
  await up?.done;
  rmSync(tmp, { recursive: true, force: true });
});

/** `geohub run` as a user with their up running: found on its port, not forced standalone. */
const onUp = (mark: Record<string, string> = {}) => ({
  GEOHUB_PORT: up.port,
  GEOHUB_STANDALONE: '',
  ...mark,
});
/** Every tile of GDAL's cover of RGB.byte.tif at `zoom` is in `out`, and nothing else. */
const expectCoverOfRgb = (out: string, zoom: number) => {
  const tiles = findFiles(out, (n) => n.endsWith('.tif')).map((p) =>
    p.slice(out.length + 1).replace(/\.tif$/, ''),
  );
  expect(tiles.sort()).toEqual(
    gdalTileCover(RGB, zoom)
      .map((t) => `${t.z}/${t.x}/${t.y}`)
      .sort(),
  );
};
const runsOfUp = async () =>
  ((await (await up.fetch('/api/runs')).json()) as { runId: string }[]).map((r) => r.runId);

describe('geohub run on a running geohub up', () => {
  it('uses it: says so, the run is the up’s, every tile of GDAL’s cover copied into --out', async () => {
    const out = tempDir('geohub-run-on-up-');
    const cli = processMark();
    const r = await runCli(['run', RGB, '--zoom', '9', '--out', out, '--json'], onUp(cli.env));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`geohub run: on your running geohub up at ${up.url}`);
    const summary = JSON.parse(r.stdout) as {
      runId: string;
      status: string;
      tiles: { done: number; total: number };
    };
    expect(summary.status).toBe('SUCCEEDED');
    expect(await runsOfUp()).toContain(summary.runId);
    expectCoverOfRgb(out, 9);
    expect(readdirSync(out)).toEqual(expect.arrayContaining(['mosaic.vrt', 'collection.json']));
    // It started nothing of its own: no emulator, no worker, nothing left.
    expect(cli.live()).toEqual([]);
  });

  it('Ctrl-C to its process group cancels the run on the up, which keeps serving', async () => {
    const slow = slowGeoTiff(tempDir('geohub-slowtif-'), 40);
    const out = tempDir('geohub-run-on-up-');
    const cli = processMark();
    const before = new Set(await runsOfUp());
    const run = startCli(['run', slow, '--zoom', '13', '--out', out, '--json'], onUp(cli.env), {
      detached: true,
    });
    // A tool of the up's is warping this run's source: the run is under way.
    const toolOfUp = () => upMark.live().some((p) => / (gdalwarp|gdal-metatile) /.test(p));
    expect(await waitUntil(toolOfUp, 90_000, 100)).toBe(true);
    process.kill(-run.child.pid!, 'SIGINT');
    const r = await run.done;
    expect(r.code, r.stderr).toBe(130);
    const runId = (await runsOfUp()).find((id) => !before.has(id));
    expect(runId).toBeDefined();
    const view = (await (await up.fetch(`/api/runs/${runId}`)).json()) as { status: string };
    expect(view.status).toBe('CANCELLED');
    expect(await (await up.fetch(`/api/runs/${runId}/claims`)).json()).toEqual({ held: 0 });
    expect(await waitUntil(() => !toolOfUp(), 30_000, 100)).toBe(true);
    expect(cli.live()).toEqual([]);
    // The up is untouched: it answers, and runs the next job.
    const next = await runCli(
      ['run', RGB, '--zoom', '8', '--out', tempDir('geohub-run-on-up-'), '--json'],
      onUp(),
    );
    expect(JSON.parse(next.stdout)).toMatchObject({ status: 'SUCCEEDED' });
  });

  // The bug it catches: a collection sent to a private stack while the user's up runs (or to the
  // up as one file): the run would not be the up's, and its page would not show the collection.
  it('a collection runs on it too, uploaded as to AWS; the page shows the collection and its files', async () => {
    const dir = tempDir('geohub-run-on-up-');
    const parts = join(dir, 'parts');
    mkdirSync(parts);
    const [w, h] = [395, 359]; // RGB.byte.tif is 791 × 718: unequal quarters
    for (const [i, win] of [
      [0, 0, w, h],
      [w, 0, 791 - w, h],
      [0, h, w, 718 - h],
      [w, h, 791 - w, 718 - h],
    ].entries())
      execFileSync('gdal_translate', ['-q', '-srcwin', ...win.map(String), RGB, join(parts, `q${i}.tif`)]);
    const out = join(dir, 'out');
    const cli = processMark();
    const r = await runCli(['run', parts, '--zoom', '9', '--out', out, '--json'], onUp(cli.env));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('geohub run: a collection of 4 files (parts)');
    expect(r.stderr).toContain(`geohub run: on your running geohub up at ${up.url}`);
    const summary = JSON.parse(r.stdout) as { runId: string; status: string; collection: unknown };
    expect(summary.status).toBe('SUCCEEDED');
    expect(summary.collection).toEqual({ name: 'parts', members: 4, skipped: 0 });
    expect(await runsOfUp()).toContain(summary.runId);
    const view = (await (await up.fetch(`/api/runs/${summary.runId}`)).json()) as {
      source: { key: string };
      collection: unknown;
    };
    expect(view.source.key).toMatch(/^incoming\/[0-9]+\/parts\.collection\.json$/);
    expect(view.collection).toEqual({
      members: 4,
      skipped: 0,
      names: ['q0.tif', 'q1.tif', 'q2.tif', 'q3.tif'],
    });
    // The union of the quarters is the raster: GDAL's cover of it, every tile.
    expectCoverOfRgb(out, 9);
    expect(cli.live()).toEqual([]);
  });

  it('a stale file of a dead up is not used: said in one line, the run goes to a private stack', async () => {
    const state = mkdtempSync(join(tmpdir(), 'geohub-xdg-'));
    try {
      const dir = join(state, 'geohub');
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { mode: 0o700 });
      // A pid no process can have (above Linux's largest pid_max): what a SIGKILLed up leaves behind.
      const port = '47999';
      writeFileSync(
        join(dir, `up-${port}.json`),
        JSON.stringify({ url: `http://127.0.0.1:${port}`, token: 'x', pid: 2 ** 22 + 1, operator: {} }),
        { mode: 0o600 },
      );
      const out = tempDir('geohub-run-on-up-');
      const r = await runCli(['run', RGB, '--zoom', '8', '--out', out, '--json'], {
        XDG_RUNTIME_DIR: state,
        GEOHUB_PORT: port,
        GEOHUB_STANDALONE: '',
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        /^geohub run: not using the geohub up on port 47999: .* was stale: .*; starting a private stack$/m,
      );
      expect(JSON.parse(r.stdout)).toMatchObject({ status: 'SUCCEEDED' });
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  });
});
