import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listTiles } from '../../lib/ledger/tile-records.js';
import type { LocalHub } from '../../local/hub/local-hub.js';
import { HUB_WORKER_ENV, startTestHub } from '../support/hub.js';
import { waitUntil } from '../support/wait-until.js';
import {
  containerState,
  removeContainer,
  startWorkerContainer,
  WORKER_IMAGE,
  type WorkerContainer,
} from '../support/worker-container.js';

// `npm run test:image` (scripts/test-image.sh, after `npm run image`): the worker image run as
// the worker against the local stack, with no worker process on the host: every tile of these
// runs is made inside a container.
const RGB = new URL('../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const AUTZEN = new URL('../../examples/pointcloud/autzen_trim.laz', import.meta.url).pathname;

let hub: LocalHub;
let workerEnv: Record<string, string>;
const containers: WorkerContainer[] = [];

beforeAll(async () => {
  hub = await startTestHub({ workers: 0 });
  workerEnv = { ...hub.stack.envFor('worker'), ...HUB_WORKER_ENV, GEOHUB_LOG_LEVEL: 'info' };
});
afterEach(async () => {
  for (const c of containers.splice(0)) {
    removeContainer(c.name);
    await c.exited;
  }
});
afterAll(async () => {
  await hub?.stop();
});

function start(): WorkerContainer {
  const c = startWorkerContainer(workerEnv);
  containers.push(c);
  return c;
}

async function tileStates(runId: string) {
  const states = new Map<string, string>();
  for await (const t of listTiles(hub.ledger, runId)) states.set(t.tileId, t.state);
  return states;
}

const podman = (...args: string[]) => execFileSync('podman', args, { encoding: 'utf8' }).trim();

describe('the worker image, run as the worker', () => {
  it('is non-root, runs tini → node with no shell, and holds the pinned GDAL, PDAL and Node', () => {
    const config = JSON.parse(podman('image', 'inspect', '--format', '{{json .Config}}', WORKER_IMAGE));
    expect(config.User).toBe('65534:65534');
    expect(config.Entrypoint).toEqual(['/usr/bin/tini', '--', 'node', '/app/main.js']);
    expect(config.StopSignal).toBe('SIGTERM');
    expect(config.Labels['geohub.pdal.version']).toBe('2.8.4');
    const run = (...cmd: string[]) =>
      podman(
        'run',
        '--rm',
        '--read-only',
        '--network',
        'none',
        '--entrypoint',
        cmd[0]!,
        WORKER_IMAGE,
        ...cmd.slice(1),
      );
    expect(run('pdal', '--version')).toMatch(/pdal 2\.8\.4/);
    expect(run('gdalinfo', '--version')).toMatch(/^GDAL 3\.6\.2/);
    expect(run('node', '--version')).toBe(`v${config.Labels['geohub.node.version']}`);
    expect(run('id', '-u')).toBe('65534');
  });

  it('a raster run and a point-cloud run SUCCEED, every tile made in the container', async () => {
    const c = start();
    await c.waitForLog((l) => l.msg === 'worker started', 120_000);
    // The point cloud with its defaults (a DTM at its native zoom), as a user uploads it.
    for (const [file, options] of [
      [RGB, { job: { zoom: 9 } }],
      [AUTZEN, {}],
    ] as const) {
      const started = await hub.upload(file, options);
      if (started.outcome !== 'started') throw new Error(`${file} did not start: ${started.outcome}`);
      const end = await hub.executions.wait(started.executionArn);
      expect(end.status, `${file}: ${end.error ?? ''} ${end.cause ?? ''}`).toBe('SUCCEEDED');
      const states = await tileStates(started.runId);
      expect(states.size).toBeGreaterThan(0);
      expect([...states.values()].every((s) => s === 'DONE')).toBe(true);
      // No worker runs on the host: the container's log holds each tile's tool start.
      const made = new Set(
        c.logs
          .filter((l) => l.msg === 'tool started' && l.runId === started.runId)
          .map((l) => String(l.tileId)),
      );
      for (const tileId of states.keys()) expect(made.has(tileId), tileId).toBe(true);
    }
    // Its start-up self-check found nothing to refuse.
    expect(c.logs.some((l) => /self-check/.test(String(l.msg)) && Number(l.level) >= 50)).toBe(false);
  });

  it('podman stop (SIGTERM through tini): exit 75, no partial output, the restart redoes at most what was in flight', async () => {
    const first = start();
    const started = await hub.upload(RGB, { name: 'sigterm.tif', job: { zoom: 12 } });
    if (started.outcome !== 'started') throw new Error('the run did not start');
    let done = 0;
    await first.waitForLog((l) => l.msg === 'metatile done' && ++done === 3, 180_000);
    podman('stop', '--time', '120', first.name);
    expect((await first.exited).code).toBe(75);
    expect(containerState(first.name)?.exitCode).toBe(75);
    const afterStop = await tileStates(started.runId);
    const marked = new Set([...afterStop].filter(([, s]) => s === 'DONE').map(([id]) => id));
    expect(marked.size).toBeGreaterThan(0);
    expect(marked.size).toBeLessThan(afterStop.size);
    // Nothing is left claimed by the stopped container: its in-flight work was finished or released.
    expect([...afterStop.values()].filter((s) => s === 'CLAIMED')).toEqual([]);

    const second = start();
    const end = await hub.executions.wait(started.executionArn);
    const why = (await hub.ledger.getRun(started.runId))?.reason;
    expect(end.status, `${end.error ?? ''} ${why ?? ''}`).toBe('SUCCEEDED');
    // The restart made only what the first had not marked.
    for (const id of second.toolStarts().keys()) expect(marked.has(id), id).toBe(false);
    const startedByFirst = new Set(first.toolStarts().keys());
    const redone = [...second.toolStarts().keys()].filter((id) => startedByFirst.has(id));
    const inFlight = [...startedByFirst].filter((id) => !marked.has(id));
    expect(redone.length).toBeLessThanOrEqual(inFlight.length);
    // No partial object anywhere in the run's outputs.
    const keys: string[] = [];
    for await (const o of hub.store.list(`tiles/${started.runId}/`)) keys.push(o.key);
    expect(keys.filter((k) => k.endsWith('.part'))).toEqual([]);
  });

  it('podman kill -s KILL: the claims expire and are reaped, and the run SUCCEEDS on another container', async () => {
    const first = start();
    const started = await hub.upload(RGB, { name: 'sigkill.tif', job: { zoom: 11 } });
    if (started.outcome !== 'started') throw new Error('the run did not start');
    await first.waitForLog((l) => l.msg === 'tool started' && l.runId === started.runId, 180_000);
    podman('kill', '--signal', 'KILL', first.name);
    await first.exited;
    expect(containerState(first.name)?.exitCode).toBe(137);
    const second = start();
    await second.waitForLog((l) => l.msg === 'worker started', 120_000);
    // The reaper (every minute on AWS) releases what the dead container held once its lease
    // ends; the second container then takes that work.
    let reaped = 0;
    const ended = waitUntil(
      async () => {
        reaped += (await hub.reap()).reaped;
        return (await hub.ledger.getRun(started.runId))?.status === 'SUCCEEDED';
      },
      300_000,
      500,
    );
    expect(await ended).toBe(true);
    expect(reaped).toBeGreaterThan(0);
    const end = await hub.executions.wait(started.executionArn);
    expect(end.status).toBe('SUCCEEDED');
    const states = await tileStates(started.runId);
    expect([...states.values()].every((s) => s === 'DONE')).toBe(true);
  });
});
