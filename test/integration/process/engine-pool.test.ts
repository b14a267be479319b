import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { createEnginePool, type EngineSpec } from '../../../lib/process/engine-pool.js';
import { engineRequest } from '../../../lib/process/engine-request.js';
import { ToolCancelledError, ToolExitError, ToolTimeoutError } from '../../../lib/process/errors.js';
import { isAlive, processTable } from '../../../lib/process/process-table.js';
import { runProcess } from '../../../lib/process/run-process.js';
import { groupGone } from '../../../lib/process/terminate-group.js';
import { tileBounds } from '../../../lib/tiling/tile-bounds.js';
import { nodeEntry } from '../../../local/node-entry.js';
import { gdalEnv } from '../../../worker/gdal-env.js';
import { DEFAULT_GDAL_PYTHON, metatileCommand } from '../../../worker/metatile-command.js';
import { createFixture } from '../../support/run-fixture.js';
import { stackClients } from '../../support/stack-clients.js';
import { tempDir } from '../../support/temp-dir.js';
import { gdalTileCover } from '../../support/tile-oracle.js';
import { waitUntil } from '../../support/wait-until.js';

const { config, clients } = stackClients();
afterAll(() => clients.destroy());
const ENGINE = metatileCommand(DEFAULT_GDAL_PYTHON);
const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const LIMITS = { timeoutMs: 60_000, graceMs: 1_000 };

/** A one-tile spec: a tile of RGB.byte.tif's zoom-10 cover (its first, or the one at its centre), written as `<prefix>tile.tif`. */
function spec(
  prefix: string,
  extra: readonly string[] = [],
  size = 256,
  where: 'first' | 'centre' = 'first',
): string {
  const cover = gdalTileCover(RGB, 10);
  const mid = (v: number[]) => Math.round((Math.min(...v) + Math.max(...v)) / 2);
  const { z, x, y } =
    where === 'first' ? cover[0]! : { z: 10, x: mid(cover.map((t) => t.x)), y: mid(cover.map((t) => t.y)) };
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
      String(size),
      String(size),
      ...extra,
    ],
    tiles: [{ col: 0, row: 0, output: `${prefix}tile.tif` }],
  });
}

function pool(dir: string, env: Record<string, string> = {}, requestsPerEngine?: number) {
  const engines = createEnginePool({ requestsPerEngine });
  onTestFinished(() => engines.close());
  const engineSpec: EngineSpec = { ...ENGINE, env: { ...process.env, ...env }, cwd: dir };
  const run = async (input: string, options: Partial<typeof LIMITS> & { signal?: AbortSignal } = {}) => {
    let pid = 0;
    await engines.run(engineSpec, input, {
      ...LIMITS,
      ...options,
      onSpawn: (p) => {
        pid = p;
      },
    });
    return pid;
  };
  return { engines, engineSpec, run };
}

/** The kernel's name for a process (what the self-check and the debris checks look at). */
const commandOf = (pid: number) => processTable().find((p) => p.pid === pid)?.command;

describe('engine pool: one metatile engine serves a worker’s requests one after the other', () => {
  it('the second request runs on the engine of the first; its tiles equal a one-shot engine’s; between requests it is no GDAL tool', async () => {
    const dir = tempDir('geohub-engines-');
    const { engines, run } = pool(dir);
    const first = await run(spec(join(dir, 'a-')));
    // Waiting for the next request: alive, named as the interpreter, no output of its own.
    expect(isAlive(first)).toBe(true);
    expect(commandOf(first)).not.toMatch(/^gdal/);
    expect(readdirSync(dir)).toEqual(['a-tile.tif']);

    const second = await run(spec(join(dir, 'b-')));
    expect(second).toBe(first);
    await runProcess(ENGINE.file, [...ENGINE.args, spec(join(dir, 'cold-'))], LIMITS);
    const tile = (prefix: string) => readFileSync(join(dir, `${prefix}tile.tif`));
    expect(tile('b-').equals(tile('cold-'))).toBe(true);
    expect(tile('a-').equals(tile('cold-'))).toBe(true);

    // Closed: the waiting engine is dead by the time close() resolves (a worker exits right after).
    await engines.close();
    expect(groupGone(first)).toBe(true);
  });

  it('one engine serves every run: a request’s GDAL config holds for that request alone; an engine that died waiting: a new one', async () => {
    const dir = tempDir('geohub-engines-');
    const { engines, engineSpec, run } = pool(dir);
    const request = async (input: string) => {
      let pid = 0;
      const result = await engines.run(engineSpec, input, { ...LIMITS, onSpawn: (p) => (pid = p) });
      return { pid, stderr: result.stderr };
    };
    // GDAL's debug output on for one request of run r-1: its stderr has GDAL's own lines.
    const debug = await request(
      engineRequest(spec(join(dir, 'a-')), { runId: 'r-1', config: { CPL_DEBUG: 'ON' } }),
    );
    expect(debug.stderr).toMatch(/GDAL|GTiff|WARP/);
    // The next request, of another run, on the same engine: none of it.
    const next = await request(engineRequest(spec(join(dir, 'b-')), { runId: 'r-2', config: {} }));
    expect(next.pid).toBe(debug.pid);
    expect(next.stderr).toBe('');
    // Both tiles are the one-shot engine's.
    await runProcess(ENGINE.file, [...ENGINE.args, spec(join(dir, 'cold-'))], LIMITS);
    const tile = (prefix: string) => readFileSync(join(dir, `${prefix}tile.tif`));
    expect(tile('a-').equals(tile('cold-'))).toBe(true);
    expect(tile('b-').equals(tile('cold-'))).toBe(true);

    process.kill(next.pid, 'SIGKILL');
    expect(await waitUntil(() => !existsSync(`/proc/${next.pid}`), 5_000, 20)).toBe(true);
    const third = await run(spec(join(dir, 'c-')));
    expect(third).not.toBe(next.pid);
    expect(readdirSync(dir).sort()).toEqual(['a-tile.tif', 'b-tile.tif', 'c-tile.tif', 'cold-tile.tif']);
  });

  it('a request of another run reads its source afresh: a key uploaded again between two runs is not answered from GDAL’s cache', async () => {
    const dir = tempDir('geohub-engines-');
    const fixture = await createFixture(config, clients);
    const { engines } = pool(dir);
    const engineSpec: EngineSpec = { ...ENGINE, env: gdalEnv(config), cwd: dir };
    // The second version: the same grid, every value inverted.
    const inverted = join(dir, 'inverted.tif');
    execFileSync('gdal_translate', ['-q', '-scale', '0', '255', '255', '0', RGB, inverted]);
    const key = `engines/${randomUUID()}/source.tif`;
    // A tile in the middle of the raster: all data, so the two versions differ in every pixel.
    const middle = (prefix: string) => spec(join(dir, prefix), [], 256, 'centre');
    const onS3 = (prefix: string) =>
      middle(prefix).replace(JSON.stringify(RGB), JSON.stringify(`/vsis3/${config.bucket}/${key}`));
    const request = (prefix: string, runId: string) =>
      engines.run(engineSpec, engineRequest(onS3(prefix), { runId, config: {} }), LIMITS);

    await fixture.store.putFile(key, RGB);
    await request('a-', 'r-1');
    await fixture.store.putFile(key, inverted);
    await request('b-', 'r-2');

    const cold = (prefix: string, source: string) =>
      runProcess(
        ENGINE.file,
        [...ENGINE.args, middle(prefix).replace(JSON.stringify(RGB), JSON.stringify(source))],
        LIMITS,
      );
    await cold('cold-a-', RGB);
    await cold('cold-b-', inverted);
    const tile = (prefix: string) => readFileSync(join(dir, `${prefix}tile.tif`));
    expect(tile('cold-a-').equals(tile('cold-b-'))).toBe(false);
    expect(tile('a-').equals(tile('cold-a-'))).toBe(true);
    expect(tile('b-').equals(tile('cold-b-'))).toBe(true);
  });

  it('an engine started ahead waits as the interpreter and serves the first request; once closed, none is started', async () => {
    const dir = tempDir('geohub-engines-');
    const { engines, engineSpec, run } = pool(dir);
    engines.prestart(engineSpec);
    const waiting = processTable().filter((p) => p.ppid === process.pid && p.args.includes('--serve'));
    expect(waiting).toHaveLength(1);
    expect(waiting[0]!.command).not.toMatch(/^gdal/);
    // Started ahead once: a second call while it waits starts no other.
    engines.prestart(engineSpec);
    expect(processTable().filter((p) => p.ppid === process.pid && p.args.includes('--serve'))).toHaveLength(
      1,
    );
    expect(await run(spec(join(dir, 'a-')))).toBe(waiting[0]!.pid);
    expect(existsSync(join(dir, 'a-tile.tif'))).toBe(true);

    await engines.close();
    expect(groupGone(waiting[0]!.pid)).toBe(true);
    engines.prestart(engineSpec);
    expect(processTable().filter((p) => p.ppid === process.pid && p.args.includes('--serve'))).toEqual([]);
  });

  it('an engine is replaced after its quota of requests', async () => {
    const dir = tempDir('geohub-engines-');
    const { run } = pool(dir, {}, 2);
    const pids: number[] = [];
    for (const name of ['a', 'b', 'c', 'd']) pids.push(await run(spec(join(dir, `${name}-`))));
    expect(pids[1]).toBe(pids[0]);
    expect(pids[2]).not.toBe(pids[0]);
    expect(pids[3]).toBe(pids[2]);
    expect(await waitUntil(() => !isAlive(pids[0]!), 5_000, 20)).toBe(true);
  });

  it('a failed request says what GDAL said, ends its engine, and the next request gets a new one', async () => {
    const dir = tempDir('geohub-engines-');
    const { run } = pool(dir);
    const good = await run(spec(join(dir, 'a-')));
    const missing = spec(join(dir, 'bad-')).replace(RGB, join(dir, 'no-such.tif'));
    const error = await run(missing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolExitError);
    expect((error as ToolExitError).exitCode).toBe(1);
    expect((error as Error).message).toMatch(/no-such\.tif/);
    expect(groupGone(good)).toBe(true);
    const next = await run(spec(join(dir, 'c-')));
    expect(next).not.toBe(good);
    expect(existsSync(join(dir, 'c-tile.tif'))).toBe(true);
  });

  it('a cancel mid-request and a request past its budget: the engine’s group is dead when the call settles', async () => {
    const dir = tempDir('geohub-engines-');
    const { run } = pool(dir);
    // A long warp: 6000² with lanczos takes seconds, so both land while GDAL works.
    const slow = (name: string) => spec(join(dir, `${name}-`), ['-r', 'lanczos', '-et', '0'], 6000);
    const controller = new AbortController();
    let pid = 0;
    const cancelled = run(slow('cancelled'), { signal: controller.signal });
    await waitUntil(
      () => {
        pid = processTable().find((p) => p.ppid === process.pid && p.command === 'gdal-metatile')?.pid ?? 0;
        return pid > 0;
      },
      10_000,
      10,
    );
    controller.abort(new Error('run cancelled'));
    await expect(cancelled).rejects.toBeInstanceOf(ToolCancelledError);
    expect(groupGone(pid)).toBe(true);

    const timedOut = await run(slow('late'), { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(ToolTimeoutError);
    expect(processTable().filter((p) => p.ppid === process.pid && p.command === 'gdal-metatile')).toEqual([]);
  });

  it('a worker killed with SIGKILL leaves no engine behind: its engine reads end-of-file and exits', async () => {
    const dir = tempDir('geohub-engines-');
    const holder = spawn(
      process.execPath,
      [...nodeEntry(new URL('../../support/engine-holder-main.ts', import.meta.url)), spec(join(dir, 'h-'))],
      { stdio: ['ignore', 'pipe', 'inherit'], cwd: dir },
    );
    onTestFinished(() => {
      holder.kill('SIGKILL');
    });
    const line = await new Promise<string>((resolve) =>
      holder.stdout.once('data', (d) => resolve(String(d))),
    );
    const { engine } = JSON.parse(line) as { engine: number };
    expect(isAlive(engine)).toBe(true);
    expect(existsSync(join(dir, 'h-tile.tif'))).toBe(true);
    holder.kill('SIGKILL');
    expect(await waitUntil(() => !isAlive(engine), 15_000, 50)).toBe(true);
  });
});
