import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSourceHeader } from '../../../lib/source/read-source-header.js';
import { planTiles } from '../../../lib/split/plan-tiles.js';
import { localFileStore } from '../../../lib/store/file-store.js';
import { coverTiles } from '../../../lib/tiling/cover-tiles.js';
import { findFiles } from '../../support/find-files.js';
import { waitForWarp } from '../../support/mid-warp.js';
import { createFixture, enqueueTiles, seedRun, tileStates } from '../../support/run-fixture.js';
import { slowSource } from '../../support/slow-source.js';
import { stackClients } from '../../support/stack-clients.js';
import { tempDir } from '../../support/temp-dir.js';
import { gdalTileCover } from '../../support/tile-oracle.js';
import { waitUntil } from '../../support/wait-until.js';
import {
  buildWorkerBundle,
  childrenOf,
  pidNamespaceOf,
  processesInNamespace,
} from '../../support/worker-bundle.js';
import { spawnWorker, trackWorkers, type WorkerHandle } from '../../support/worker-harness.js';

// The worker image ships this bundle and nothing else of the repository (worker/Dockerfile):
// these tests run it the way the container does, minus Docker.
const { config, clients, env } = stackClients();
const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const AUTZEN = new URL('../../../examples/pointcloud/autzen_trim.laz', import.meta.url).pathname;

let bundle: string;
beforeAll(() => {
  bundle = buildWorkerBundle();
});
afterAll(() => {
  rmSync(bundle, { recursive: true, force: true });
  clients.destroy();
});
const workers = trackWorkers();

/** Only what a shell in the image would have: no NODE_PATH, no npm or tsx settings, a bare HOME. */
function bareEnv(home: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8' };
}

/** The worker as PID 1 of a new PID namespace (as a container starts it); `init` puts tini there instead. */
function inNamespace(init: 'node' | 'tini', home: string, extraPath?: string) {
  const worker = [process.execPath, join(bundle, 'main.js')];
  const command = init === 'tini' ? ['tini', '--', ...worker] : worker;
  return {
    file: 'unshare',
    args: ['--pid', '--fork', '--mount-proc', '--kill-child', ...command],
    cwd: bundle,
    baseEnv: { ...bareEnv(home), PATH: extraPath ? `${extraPath}:${process.env.PATH}` : process.env.PATH },
    ownPidNamespace: true,
  };
}

/** The host PID of the namespace's PID 1 (unshare's only child), once it exists. */
async function namespaceInit(launcher: number): Promise<number> {
  let init: number | undefined;
  await waitUntil(
    () => {
      init = childrenOf(launcher)[0];
      return init !== undefined;
    },
    10_000,
    10,
  );
  if (init === undefined) throw new Error('unshare started no child');
  return init;
}

/** Once the worker in its namespace started its tool: the namespace, its PID 1 and the tool's group leader. */
async function toolInNamespace(worker: WorkerHandle) {
  const init = await namespaceInit(worker.pid);
  const namespace = pidNamespaceOf(init)!;
  expect(namespace).not.toBe(pidNamespaceOf(process.pid));
  const started = await worker.waitForLog((l) => l.msg === 'tool started');
  const leader = processesInNamespace(namespace).find((p) => p.nsPid === Number(started.pid))!;
  expect(leader).toBeDefined();
  expect(leader.pgid).toBe(leader.hostPid); // the tool leads a process group of its own
  return { init, namespace, leader: leader.hostPid };
}

/**
 * SIGTERM to `target` (as ECS sends it, from outside), then watches the tool's process group:
 * when it was gone, and whether the worker (`workerPid`) was still alive then — i.e. the worker
 * killed its tool itself, not the kernel tearing down the namespace after PID 1 exited.
 */
async function terminateAndWatch(namespace: string, leader: number, target: number, workerPid: number) {
  const sentAt = Date.now();
  process.kill(target, 'SIGTERM');
  let goneAfterMs: number | undefined;
  let workerAliveThen = false;
  await waitUntil(
    () => {
      const live = processesInNamespace(namespace);
      if (live.some((p) => p.pgid === leader)) return false;
      goneAfterMs = Date.now() - sentAt;
      workerAliveThen = live.some((p) => p.hostPid === workerPid);
      return true;
    },
    60_000,
    5,
  );
  return { sentAt, goneAfterMs, workerAliveThen };
}

describe('the worker bundle, as the image ships it', () => {
  it('holds only the bundles, the extractor, laz-perf’s WASM and a package.json: no node_modules anywhere above it', () => {
    expect(readdirSync(bundle).sort()).toEqual([
      'extract-tile-points-main.js',
      'extract-tile-points-main.js.map',
      'laz-perf.wasm',
      'main.js',
      'main.js.map',
      'package.json',
      'worker', // worker/tools/warp-metatile.py: the metatile engine's script
    ]);
    expect(readdirSync(join(bundle, 'worker', 'tools'))).toEqual(['warp-metatile.py']);
    for (let dir = bundle; dir !== dirname(dir); dir = dirname(dir))
      expect(existsSync(join(dir, 'node_modules')), dir).toBe(false);
    // What went into it (its source map): the worker's code and runtime libraries, none of the
    // local stand-ins for AWS, none of the dev tools.
    const sources = (JSON.parse(readFileSync(join(bundle, 'main.js.map'), 'utf8')) as { sources: string[] })
      .sources;
    expect(sources.some((s) => s.endsWith('worker/main.ts'))).toBe(true);
    expect(sources.some((s) => s.includes('node_modules/@aws-sdk/client-sqs/'))).toBe(true);
    const forbidden =
      /node_modules\/(s3rver|local-aws-sqs|amplify-dynamodb-simulator|aws-local-stepfunctions|vitest|tsx|esbuild|typescript)\/|\/local\//;
    expect(sources.filter((s) => forbidden.test(s))).toEqual([]);
  });

  it('processes raster and point-cloud sub-tiles against the local stack from an empty directory', async () => {
    const fixture = await createFixture(config, clients);
    const raster = await seedRun(fixture, [RGB], gdalTileCover(RGB, 8));
    const header = (await readSourceHeader(localFileStore(AUTZEN), localFileStore(AUTZEN).key)).header;
    const plan = planTiles(header, undefined, AUTZEN, 1_000);
    const cloudTiles = [...coverTiles(plan.ranges[0]!)].slice(0, 4);
    const cloud = await seedRun(fixture, [AUTZEN], cloudTiles, 'pointcloud-dtm');
    await enqueueTiles(fixture, raster.runId, raster.tasks, 2);
    await enqueueTiles(fixture, cloud.runId, cloud.tasks, 2);

    const home = tempDir('geohub-home-');
    const worker = spawnWorker(env, fixture.env, {
      file: process.execPath,
      args: [join(bundle, 'main.js')],
      cwd: home,
      baseEnv: bareEnv(home),
    });
    workers.push(worker);
    expect((await worker.exited).code).toBe(0);

    for (const run of [raster, cloud]) {
      const states = await tileStates(fixture.ledger, run.runId);
      expect([...states.values()].map((t) => t.state)).toEqual(run.tasks.map(() => 'DONE'));
      for (const tile of states.values()) {
        expect((await fixture.store.head(tile.output!.key))?.etag).toBe(tile.output!.etag);
      }
    }
    // The point cloud went through the bundled extractor (a child process) and its WASM decoder.
    expect(worker.toolStarts().size).toBeGreaterThanOrEqual(raster.tasks.length + cloud.tasks.length);
    expect(worker.logs.filter((l) => l.level !== undefined && Number(l.level) >= 50)).toEqual([]);
    expect(readdirSync(home)).toEqual([]);
  });

  it('as PID 1 of its own PID namespace: SIGTERM → tool group dead, no .part, exit 75 within the stop grace', async () => {
    const fixture = await createFixture(config, clients);
    const slow = slowSource(tempDir('geohub-slow-'));
    const run = await seedRun(fixture, slow.files, [slow.tile]);
    await enqueueTiles(fixture, run.runId, run.tasks);

    const stopGraceMs = 6_000; // no more than the cleanup reserve: the sub-tile cannot finish in it
    const worker = spawnWorker(
      env,
      { ...fixture.env, GEOHUB_STOP_GRACE_MS: String(stopGraceMs) },
      inNamespace('node', tempDir('geohub-home-')),
    );
    workers.push(worker);
    const { init, namespace, leader } = await toolInNamespace(worker);
    // Warping (named, .part files touched), not a fixed sleep that a loaded machine outlasts.
    expect(await waitForWarp(leader, worker.scratch)).toBe(true);

    // What ECS does on a Spot reclaim: SIGTERM to the container's PID 1 (here node itself).
    const watched = await terminateAndWatch(namespace, leader, init, init);
    const { code } = await worker.exited;
    expect(code).toBe(75);
    expect(Date.now() - watched.sentAt).toBeLessThan(stopGraceMs);
    expect(watched.goneAfterMs).toBeDefined();
    expect(watched.workerAliveThen).toBe(true);
    expect(findFiles(worker.scratch, (n) => n.endsWith('.part') || n.endsWith('.tif'))).toEqual([]);
    const tile = (await tileStates(fixture.ledger, run.runId)).get(run.tasks[0]!.id)!;
    expect(tile).toMatchObject({ state: 'QUEUED', interruptions: 1 });
    expect(tile.owner).toBeUndefined();
    expect(await fixture.queue.depth()).toMatchObject({ visible: 1 });
  });

  it('under tini as PID 1, a tool that ignores SIGTERM dies at the kill grace, then the worker exits 75', async () => {
    const fixture = await createFixture(config, clients);
    const run = await seedRun(fixture, [RGB], gdalTileCover(RGB, 8).slice(0, 1));
    await enqueueTiles(fixture, run.runId, run.tasks);
    // A tool that ignores SIGTERM (an ignored signal stays ignored across exec), standing in for
    // the raster engine's interpreter.
    const tools = tempDir('geohub-stubborn-');
    writeFileSync(join(tools, 'gdalwarp'), "#!/bin/sh\ntrap '' TERM\nexec sleep 600\n");
    chmodSync(join(tools, 'gdalwarp'), 0o755);

    const killGraceMs = 2_000;
    const stopGraceMs = 8_000;
    const worker = spawnWorker(
      env,
      {
        ...fixture.env,
        GEOHUB_KILL_GRACE_MS: String(killGraceMs),
        GEOHUB_STOP_GRACE_MS: String(stopGraceMs),
        GEOHUB_GDAL_PYTHON: join(tools, 'gdalwarp'),
      },
      inNamespace('tini', tempDir('geohub-home-'), tools),
    );
    workers.push(worker);
    const { init, namespace, leader } = await toolInNamespace(worker);
    const node = childrenOf(init)[0]!; // tini (PID 1) → node → the tool
    expect(childrenOf(node)).toContain(leader);

    const watched = await terminateAndWatch(namespace, leader, init, node); // tini forwards it to node
    const { code } = await worker.exited;
    expect(code).toBe(75);
    expect(Date.now() - watched.sentAt).toBeLessThan(stopGraceMs);
    // SIGTERM was ignored: the group died of the SIGKILL a kill grace later, not sooner, not much later.
    expect(watched.goneAfterMs!).toBeGreaterThanOrEqual(killGraceMs - 100);
    expect(watched.goneAfterMs!).toBeLessThan(killGraceMs + 3_000);
    expect(watched.workerAliveThen).toBe(true);
    expect(findFiles(worker.scratch, (n) => n.endsWith('.part') || n.endsWith('.tif'))).toEqual([]);
    expect((await tileStates(fixture.ledger, run.runId)).get(run.tasks[0]!.id)).toMatchObject({
      state: 'QUEUED',
      interruptions: 1,
    });
  });
});
