import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startCli } from '../support/cli.js';
import { findFiles } from '../support/find-files.js';
import { gdalInfos } from '../support/gdal-info.js';
import { processMark } from '../support/marked-processes.js';
import { slowGeoTiff } from '../support/raster-fixtures.js';
import { walkStacCatalog } from '../support/stac-items.js';
import { tempDir } from '../support/temp-dir.js';
import { waitUntil } from '../support/wait-until.js';

const example = (p: string) => new URL(`../../examples/${p}`, import.meta.url).pathname;
const outDir = () => tempDir('geohub-out-');

/** This test's own processes and temp dir: other stacks may run on this machine meanwhile. */
function isolated() {
  const mark = processMark();
  const tmp = tempDir('geohub-tmp-');
  return {
    env: { ...mark.env, TMPDIR: tmp },
    toolRunning: () => mark.live().some((p) => / (gdalwarp|gdal-metatile) /.test(p)),
    commandLines: mark.commandLines,
    /** Nothing running, no scratch, no `.part`, no stand-in data left. */
    leftovers: () => [...mark.live(), ...readdirSync(tmp)],
  };
}

interface Summary {
  runId: string;
  status: string;
  tiles: { total: number; done: number; failed: number; cancelled: number };
  outputs: { dir: string; mosaic?: string; stac?: string };
  durationMs: number;
}

function checkTiles(dir: string, summary: Summary, bands: number) {
  const tiles = findFiles(dir, (n) => n.endsWith('.tif'));
  expect(tiles.length).toBe(summary.tiles.total);
  const infos = gdalInfos<{
    size: number[];
    bands: unknown[];
    coordinateSystem: { wkt: string };
    metadata: Record<string, Record<string, string>>;
  }>(tiles);
  for (const tile of tiles) {
    expect(tile.slice(dir.length)).toMatch(/^\/\d+\/\d+\/\d+\.tif$/);
    const info = infos.get(tile)!;
    expect(info.size).toEqual([256, 256]);
    expect(info.bands).toHaveLength(bands);
    expect(info.coordinateSystem.wkt).toContain('"EPSG",3857');
    expect(info.metadata[''] ?? info.metadata.IMAGE_STRUCTURE).toBeDefined();
    expect(info.metadata.IMAGE_STRUCTURE.COMPRESSION).toBe('DEFLATE');
  }
  const vrt = JSON.parse(execFileSync('gdalinfo', ['-json', summary.outputs.mosaic!], { encoding: 'utf8' }));
  expect(vrt.bands).toHaveLength(bands);
  const stac = walkStacCatalog(dir);
  expect(stac.tiles).toHaveLength(summary.tiles.total);
  for (const { assetPath } of stac.tiles) expect(tiles).toContain(assetPath);
}

describe('geohub run, as a new user runs it', () => {
  it.each([
    ['raster/RGB.byte.tif', 3],
    ['raster/shade.tif', 1],
    ['pointcloud/autzen_trim.laz', 1],
  ])(
    '%s ends SUCCEEDED with valid tiles, mosaic and STAC, and leaves nothing running',
    async (file, bands) => {
      const dir = outDir();
      const own = isolated();
      const r = await runCli(['run', example(file), '--out', dir, '--json'], own.env);
      expect(r.code, r.stderr).toBe(0);
      const summary = JSON.parse(r.stdout) as Summary;
      expect(summary).toMatchObject({ status: 'SUCCEEDED', outputs: { dir } });
      expect(summary.tiles.done).toBe(summary.tiles.total);
      expect(summary.tiles.failed).toBe(0);
      checkTiles(dir, summary, bands);
      expect(own.leftovers()).toEqual([]);
    },
  );

  it('a corrupt file exits non-zero with one clear line, and nothing is left running', async () => {
    const dir = tempDir('geohub-bad-');
    const own = isolated();
    const corrupt = join(dir, 'corrupt.tif');
    writeFileSync(corrupt, readFileSync(example('raster/RGB.byte.tif')).subarray(0, 5_000));
    const r = await runCli(['run', corrupt, '--out', join(dir, 'out')], own.env);
    expect(r.code).toBe(1);
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('geohub'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^geohub run: the run failed: .*truncated/);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace without --verbose
    expect(own.leftovers()).toEqual([]);
  });

  it('Ctrl-C cancels the run cleanly before exiting: no tool, no .part, no emulator left', async () => {
    const dir = outDir();
    const slow = slowGeoTiff(tempDir('geohub-slowtif-'));
    const own = isolated();
    const { child, done } = startCli(['run', slow, '--out', dir, '--zoom', '13', '--workers', '2'], own.env);
    // Wait until the tools are at work, then interrupt the CLI alone (the group: cli-exit-paths).
    expect(await waitUntil(own.toolRunning, 90_000, 100)).toBe(true);
    // Meanwhile: its stand-ins and workers run from the build's bundles (scripts/bundle-local.mjs).
    const lines = own.commandLines();
    for (const kind of ['dynamodb', 's3rver', 'sqs'])
      expect(lines.filter((l) => l.includes(`/dist/cli-bundle/emulator-main.js ${kind} `))).toHaveLength(1);
    // A worker names itself geohub-worker; its metatile engine is found next to its bundle.
    expect(
      lines.filter((l) => l.includes('/dist/worker-bundle/worker/tools/warp-metatile.py')).length,
    ).toBeGreaterThan(0);
    child.kill('SIGINT');
    const r = await done;
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('cancelling the run cleanly');
    expect(r.stderr).toMatch(/the run cancelled/);
    expect(own.leftovers()).toEqual([]);
    expect(readdirSync(dir).filter((f) => f.endsWith('.part'))).toEqual([]);
  });
});

describe('geohub cost and plan', () => {
  it('cost prints Seed B’s table from its stated inputs, and the 28- and 4-minute losses', async () => {
    const r = await runCli(['cost', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      seed: { model: number; seed: number }[];
      loss: { withoutCheckpoints: number; checkpointed: number };
    };
    const figures = [0.1, 0.034, 0.039, 0.118];
    expect(out.seed.map((row) => Number(row.seed.toFixed(3)))).toEqual(figures);
    // The model agrees on the first three; the fourth is the seed's slip (docs/cost.md).
    expect(out.seed.map((row) => Number(row.model.toFixed(3)))).toEqual([0.1, 0.034, 0.039, 0.091]);
    expect(out.loss).toMatchObject({ withoutCheckpoints: 28, checkpointed: 4 });
    const human = await runCli(['cost']);
    expect(human.stdout).toMatch(/spot, 15% interrupted, no checkpoints \| \$0\.091 \| \$0\.118/);
    expect(human.stdout).toContain('loses 28 minutes without checkpoints and 4 with them');
    // Past ~16 % spot without checkpoints does cost more than on-demand, as the seed warns.
    expect((await runCli(['cost', '--rates', '0.17'])).stdout).toContain('worse than on-demand');
  });

  it('plan counts the sub-tiles from the header alone', async () => {
    const r = await runCli(['plan', example('raster/RGB.byte.tif'), '--json']);
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan).toMatchObject({ kind: 'raster', operation: 'raster-xyz', zoom: 9, tiles: 20 });
    expect(plan.estimate.costUsd.total).toBeGreaterThan(0);
  });

  it('every command answers --help, and bad input is one line without a stack trace', async () => {
    for (const command of [
      'run',
      'up',
      'submit',
      'status',
      'cancel',
      'redrive',
      'verify',
      'get',
      'plan',
      'cost',
    ]) {
      const r = await runCli([command, '--help']);
      expect(r.code, command).toBe(0);
      expect(r.stdout).toContain(`Usage: geohub ${command}`);
    }
    const bad = await runCli(['run', 'does-not-exist.tif', '--out', outDir()]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe('geohub: cannot read does-not-exist.tif: no such file');
    // --verbose adds the stack trace, in the TypeScript sources' lines rather than the bundle's.
    const verbose = await runCli(['run', 'does-not-exist.tif', '--out', outDir(), '--verbose']);
    expect(verbose.code).toBe(1);
    expect(verbose.stderr).toMatch(/\n\s+at checkInputFile \(.*\/local\/cli\/input-file\.ts:\d+:\d+\)/);
  });
});
