import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import type { RunRecord } from '../../../lib/model/run.js';
import type { TileTask } from '../../../lib/model/tile.js';
import { mirroredObject } from '../../../lib/output/output-mirror.js';
import { processTable } from '../../../lib/process/process-table.js';
import type { ObjectStore } from '../../../lib/store/object-store.js';
import { TileRetryableError } from '../../../worker/errors.js';
import { gdalEnv } from '../../../worker/gdal-env.js';
import { DEFAULT_GDAL_PYTHON, metatileCommand } from '../../../worker/metatile-command.js';
import { OPERATIONS_BY_NAME } from '../../../worker/operations.js';
import type { ProcessTileDeps } from '../../../worker/process-tile.js';
import { processTiles } from '../../../worker/process-tiles.js';
import { rangedSourceAccess } from '../../../worker/source-access.js';
import { findFiles } from '../../support/find-files.js';
import { holdMidWarp } from '../../support/mid-warp.js';
import { createFixture, seedRun } from '../../support/run-fixture.js';
import { slowSource } from '../../support/slow-source.js';
import { stackClients } from '../../support/stack-clients.js';
import { tempDir } from '../../support/temp-dir.js';
import { gdalTileCover } from '../../support/tile-oracle.js';
import { waitUntil } from '../../support/wait-until.js';

const { config, clients } = stackClients();
afterAll(() => clients.destroy());
const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;

function deps(store: ObjectStore, starts: { pid: number; tiles: number }[]): ProcessTileDeps {
  const scratchDir = mkdtempSync(join(tmpdir(), 'geohub-process-tiles-'));
  onTestFinished(() => rmSync(scratchDir, { recursive: true, force: true }));
  return {
    store,
    sources: rangedSourceAccess(store, join(scratchDir, 'sources')),
    operations: OPERATIONS_BY_NAME,
    scratchDir,
    toolTimeoutMs: 60_000,
    killGraceMs: 2_000,
    toolEnv: gdalEnv(config),
    metatileEngine: metatileCommand(DEFAULT_GDAL_PYTHON),
    onToolStart: (_file, pid, tiles) => starts.push({ pid, tiles: tiles.length }),
  };
}

/** The run as the ledger holds it (seeded as split records it). */
const runOf = async (
  fixture: { ledger: { getRun(id: string): Promise<RunRecord | undefined> } },
  runId: string,
) => (await fixture.ledger.getRun(runId))!;

/** The first 4×4 block of RGB.byte.tif's z10 cover (its corner lies partly outside the raster). */
const block = (tasks: TileTask[]) => {
  const x0 = Math.min(...tasks.map((t) => t.x));
  const y0 = Math.min(...tasks.map((t) => t.y));
  return tasks.filter((t) => t.x < x0 + 4 && t.y < y0 + 4);
};

describe('processTiles: a block of sub-tiles in one GDAL process, uploaded in parallel', () => {
  it('makes every tile of the block with one tool run; each object durable with its size and ETag, and mirrored; nothing left in scratch', async () => {
    const fixture = await createFixture(config, clients);
    const seeded = await seedRun(fixture, [RGB], gdalTileCover(RGB, 10));
    const tiles = block(seeded.tasks);
    expect(tiles).toHaveLength(16);
    const starts: { pid: number; tiles: number }[] = [];
    const d = { ...deps(fixture.store, starts), outputMirrorDir: tempDir('geohub-mirror-') };
    const outputs = await processTiles(
      d,
      await runOf(fixture, seeded.runId),
      { tiles },
      new AbortController().signal,
    );

    expect(starts).toEqual([{ pid: starts[0]!.pid, tiles: 16 }]);
    expect([...outputs.keys()].sort()).toEqual(tiles.map((t) => t.id).sort());
    for (const tile of tiles) {
      const output = outputs.get(tile.id)!;
      expect(output.key).toBe(`tiles/${seeded.runId}/${tile.z}/${tile.x}/${tile.y}.tif`);
      expect(await fixture.store.head(output.key)).toMatchObject({ bytes: output.bytes, etag: output.etag });
      // geohub run's mirror holds the very object (its MD5 is the object's ETag).
      expect(await mirroredObject(d.outputMirrorDir, output.key, output)).toBeDefined();
    }
    expect(findFiles(d.scratchDir, () => true)).toEqual([]);
  });

  // Catches: a cancelled block that keeps its .part files in the worker's scratch.
  it('cancelled mid-warp: the process group is dead, no .part, no tile, no object; the cause is the signal reason', async () => {
    const fixture = await createFixture(config, clients);
    const slow = slowSource(tempDir('geohub-slow-'));
    const seeded = await seedRun(fixture, slow.files, [slow.tile, ...slow.near]);
    const starts: { pid: number; tiles: number }[] = [];
    const d = deps(fixture.store, starts);
    const controller = new AbortController();
    const reason = new Error('run cancelled by the operator');
    const pending = processTiles(
      d,
      await runOf(fixture, seeded.runId),
      { tiles: seeded.tasks },
      controller.signal,
    );
    // Settled whatever happens below: a failed check must not leave the engine writing into a
    // scratch directory the test's cleanup removes (that was an unhandled rejection).
    const outcome = pending.then(
      () => 'resolved',
      (e: unknown) => e,
    );
    onTestFinished(async () => {
      controller.abort(new Error('test over'));
      await outcome;
    });
    expect(await waitUntil(() => starts.length === 1, 30_000, 20)).toBe(true);
    const pgid = starts[0]!.pid;
    // Stopped mid-warp (named, its three .part files touched): still running when the cancel comes.
    const held = await holdMidWarp(pgid, d.scratchDir, seeded.tasks.length);
    controller.abort(reason); // sends SIGTERM to the group at once (lib/process/group-watch.ts)
    held.resume();
    expect(await outcome).toBe(reason);

    expect(processTable().filter((p) => p.pgid === pgid && p.state !== 'Z')).toEqual([]);
    expect(findFiles(d.scratchDir, () => true)).toEqual([]);
    for (const t of seeded.tasks)
      expect(await fixture.store.head(`tiles/${seeded.runId}/${t.z}/${t.x}/${t.y}.tif`)).toBeUndefined();
  });

  it('one upload failing: a retryable error only after every upload settled, and nothing left in scratch', async () => {
    const fixture = await createFixture(config, clients);
    const seeded = await seedRun(fixture, [RGB], gdalTileCover(RGB, 10));
    const tiles = block(seeded.tasks).slice(0, 6);
    let inFlight = 0;
    let settled = 0;
    const store: ObjectStore = {
      ...fixture.store,
      async putFile(key, path, options) {
        inFlight += 1;
        try {
          if (key.endsWith(`/${tiles[2]!.y}.tif`) && key.includes(`/${tiles[2]!.x}/`))
            throw Object.assign(new Error('SlowDown: please reduce your request rate'), { name: 'SlowDown' });
          return await fixture.store.putFile(key, path, options);
        } finally {
          inFlight -= 1;
          settled += 1;
        }
      },
    };
    const d = deps(store, []);
    const error = await processTiles(
      d,
      await runOf(fixture, seeded.runId),
      { tiles },
      new AbortController().signal,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TileRetryableError);
    expect((error as Error).message).toMatch(/SlowDown/);
    expect([inFlight, settled]).toEqual([0, tiles.length]);
    expect(findFiles(d.scratchDir, () => true)).toEqual([]);
  });
});
