import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { isAlive, processTable } from '../../../lib/process/process-table.js';
import { runProcess } from '../../../lib/process/run-process.js';
import { createWarmSpares, type SpareSpec } from '../../../lib/process/warm-spares.js';
import { tileBounds } from '../../../lib/tiling/tile-bounds.js';
import { nodeEntry } from '../../../local/node-entry.js';
import { DEFAULT_GDAL_PYTHON, metatileCommand } from '../../../worker/metatile-command.js';
import { tempDir } from '../../support/temp-dir.js';
import { gdalTileCover } from '../../support/tile-oracle.js';
import { waitUntil } from '../../support/wait-until.js';

const ENGINE = metatileCommand(DEFAULT_GDAL_PYTHON);
const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const LIMITS = { timeoutMs: 60_000, graceMs: 1_000 };
/** Gone from the process table, reaped (so its exit is known to this process), not only dead. */
const reaped = (pid: number) => !existsSync(`/proc/${pid}`);

/** This process's live children running the metatile engine (a spare waits as `python3`). */
const engineChildren = () =>
  processTable()
    .filter((p) => p.ppid === process.pid && p.state !== 'Z' && p.args.includes('warp-metatile.py'))
    .map((p) => p.pid);

/** A one-tile spec: the first tile of RGB.byte.tif's zoom-10 cover, written as `<prefix>tile.tif`. */
function spec(prefix: string): string {
  const { z, x, y } = gdalTileCover(RGB, 10)[0]!;
  const b = tileBounds(z, x, y);
  return JSON.stringify({
    source: RGB,
    tileSize: 256,
    warp: [
      '-q',
      '-t_srs',
      'EPSG:3857',
      '-te',
      ...[b.minX, b.minY, b.maxX, b.maxY].map(String),
      '-ts',
      '256',
      '256',
    ],
    tiles: [{ col: 0, row: 0, output: `${prefix}tile.tif` }],
  });
}

function spares(dir: string, env: Record<string, string> = {}) {
  const pool = createWarmSpares();
  onTestFinished(() => pool.close());
  const spareSpec: SpareSpec = { ...ENGINE, env: { ...process.env, ...env }, cwd: dir };
  return { pool, spareSpec };
}

describe('warm spares: the metatile engine started one ahead, waiting for its spec on stdin', () => {
  it('the second take is the spare the first started; it made nothing before its spec; its tile equals a cold one', async () => {
    const dir = tempDir('geohub-spares-');
    const { pool, spareSpec } = spares(dir);
    const first = pool.take(spareSpec);
    await runProcess(ENGINE.file, ENGINE.args, { ...LIMITS, input: spec(join(dir, 'a-')), started: first });
    // Only the spare is left, waiting: not named as a GDAL tool yet, and no output of its own.
    const waiting = engineChildren();
    expect(waiting).toHaveLength(1);
    expect(processTable().find((p) => p.pid === waiting[0])?.command).not.toMatch(/^gdal/);
    expect(readdirSync(dir)).toEqual(['a-tile.tif']);

    const second = pool.take(spareSpec);
    expect(second.pgid).toBe(waiting[0]);
    await runProcess(ENGINE.file, ENGINE.args, { ...LIMITS, input: spec(join(dir, 'b-')), started: second });
    await runProcess(ENGINE.file, [...ENGINE.args, spec(join(dir, 'cold-'))], LIMITS);
    const tile = (prefix: string) => readFileSync(join(dir, `${prefix}tile.tif`));
    expect(tile('b-').equals(tile('cold-'))).toBe(true);
    expect(tile('a-').equals(tile('cold-'))).toBe(true);

    // Closed: the spare the second take started is killed at once, and later takes start cold.
    const third = engineChildren();
    expect(third).toHaveLength(1);
    pool.close();
    expect(await waitUntil(() => !isAlive(third[0]!), 5_000, 20)).toBe(true);
    const cold = pool.take(spareSpec);
    // Right after its fork a child still shows this process's command line: wait for its exec.
    expect(await waitUntil(() => engineChildren().length === 1, 5_000, 20)).toBe(true);
    expect(engineChildren()).toEqual([cold.pgid]);
    cold.child.stdin?.end();
    expect((await cold.child).exitCode).toBe(0); // given no spec: stood down, nothing written
    expect(readdirSync(dir).sort()).toEqual(['a-tile.tif', 'b-tile.tif', 'cold-tile.tif']);
  });

  it('another environment (the next run pins another source version) or a spare that died: not used, started anew', async () => {
    const dir = tempDir('geohub-spares-');
    const { pool, spareSpec } = spares(dir);
    const first = pool.take(spareSpec);
    first.child.stdin?.end();
    await first.child;
    const [spare] = engineChildren();

    const otherRun = {
      ...spareSpec,
      env: { ...spareSpec.env, GDAL_HTTP_HEADER_FILE: join(dir, 'r-2.headers') },
    };
    const taken = pool.take(otherRun);
    expect(taken.pgid).not.toBe(spare);
    expect(await waitUntil(() => !isAlive(spare!), 5_000, 20)).toBe(true);
    taken.child.stdin?.end();
    await taken.child;

    const [next] = engineChildren();
    process.kill(next!, 'SIGKILL');
    expect(await waitUntil(() => reaped(next!), 5_000, 20)).toBe(true);
    const replaced = pool.take(otherRun);
    expect(replaced.pgid).not.toBe(next);
    await runProcess(ENGINE.file, ENGINE.args, {
      ...LIMITS,
      input: spec(join(dir, 'c-')),
      started: replaced,
    });
    expect(readdirSync(dir)).toContain('c-tile.tif');
  });

  it('a worker killed with SIGKILL leaves no engine behind: its spares read end-of-file and exit', async () => {
    const holder = spawn(
      process.execPath,
      nodeEntry(new URL('../../support/spare-holder-main.ts', import.meta.url)),
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    onTestFinished(() => {
      holder.kill('SIGKILL');
    });
    const line = await new Promise<string>((resolve) =>
      holder.stdout.once('data', (d) => resolve(String(d))),
    );
    const { taken, engines } = JSON.parse(line) as { taken: number; engines: number[] };
    // The engine taken (never given its spec) and the spare started with it.
    expect(engines).toHaveLength(2);
    expect(engines).toContain(taken);
    holder.kill('SIGKILL');
    expect(await waitUntil(() => engines.every((pid) => !isAlive(pid)), 15_000, 50)).toBe(true);
  });
});
