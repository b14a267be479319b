import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { verifyRun } from '../../../lib/verify/verify-run.js';
import { createFixture, enqueueTiles, seedRun, tileStates } from '../../support/run-fixture.js';
import { stackClients } from '../../support/stack-clients.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';
import { tempDir } from '../../support/temp-dir.js';
import { gdalTileCover } from '../../support/tile-oracle.js';
import { spawnWorker, trackWorkers } from '../../support/worker-harness.js';

const { config, clients, env } = stackClients();
const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const workers = trackWorkers();
const proxies: TcpProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});
afterAll(() => clients.destroy());

/** After a fault, the run must be whole: every sub-tile marked, every marker with its object. */
async function expectWholeRun(
  fixture: Awaited<ReturnType<typeof createFixture>>,
  runId: string,
  total: number,
) {
  const states = [...(await tileStates(fixture.ledger, runId)).values()];
  expect(states.map((t) => t.state)).toEqual(Array.from({ length: total }, () => 'DONE'));
  const report = await verifyRun(fixture.ledger, fixture.store, runId);
  expect(report).toMatchObject({ markers: total, gaps: [], unmarked: [] });
  expect((await fixture.ledger.getRun(runId))?.counters.done).toBe(total);
}

describe('faults in the dependencies: back off, no marker without an object, recover', () => {
  it('S3 uploads that fail for a while: retried, then the run completes', async () => {
    const fixture = await createFixture(config, clients);
    const tiles = gdalTileCover(RGB, 8);
    const run = await seedRun(fixture, [RGB], tiles);
    await enqueueTiles(fixture, run.runId, run.tasks);
    const flag = join(tempDir('geohub-flag-'), 'fail');
    writeFileSync(flag, '');
    const worker = spawnWorker(env, { ...fixture.env, GEOHUB_FAULT: `fail-upload:tiles/:${flag}` });
    workers.push(worker);
    await worker.waitForLog((l) => l.msg === 'metatile failed; will be retried');
    // No marker may exist while every upload fails.
    expect(
      [...(await tileStates(fixture.ledger, run.runId)).values()].filter((t) => t.state === 'DONE'),
    ).toEqual([]);
    rmSync(flag);
    expect((await worker.exited).code).toBe(0);
    await expectWholeRun(fixture, run.runId, tiles.length);
  });

  it('a ledger that hangs for a while (requests time out): no marker without object, then recovery', async () => {
    const fixture = await createFixture(config, clients, 10);
    const tiles = gdalTileCover(RGB, 8);
    const run = await seedRun(fixture, [RGB], tiles);
    await enqueueTiles(fixture, run.runId, run.tasks);
    const proxy = await startTcpProxy(env.GEOHUB_ENDPOINT_DYNAMODB!);
    proxies.push(proxy);
    const worker = spawnWorker(env, {
      ...fixture.env,
      GEOHUB_ENDPOINT_DYNAMODB: proxy.endpoint,
      GEOHUB_REQUEST_TIMEOUT_MS: '800',
      GEOHUB_IDLE_EXIT_MS: '8000',
    });
    workers.push(worker);
    await worker.waitForLog((l) => l.msg === 'metatile done');
    proxy.setMode('blackhole');
    await new Promise((r) => setTimeout(r, 3_000));
    // During the outage: whatever is marked has its object.
    expect((await verifyRun(fixture.ledger, fixture.store, run.runId)).gaps).toEqual([]);
    proxy.setMode('pass');
    expect((await worker.exited).code).toBe(0);
    expect(worker.logs.some((l) => l.level === 50 || l.level === 40)).toBe(true); // it noticed, and said so
    await expectWholeRun(fixture, run.runId, tiles.length);
  });

  it('the queue endpoint gone for a while: the worker backs off and carries on', async () => {
    const fixture = await createFixture(config, clients);
    const tiles = gdalTileCover(RGB, 8);
    const run = await seedRun(fixture, [RGB], tiles);
    await enqueueTiles(fixture, run.runId, run.tasks);
    const proxy = await startTcpProxy(env.GEOHUB_ENDPOINT_SQS!);
    proxies.push(proxy);
    proxy.setMode('refuse');
    const endpoint = new URL(env.GEOHUB_ENDPOINT_SQS!);
    const viaProxy = (url: string) => url.replace(`:${endpoint.port}/`, `:${proxy.port}/`);
    const worker = spawnWorker(env, {
      ...fixture.env,
      GEOHUB_ENDPOINT_SQS: proxy.endpoint,
      GEOHUB_QUEUE_URL: viaProxy(fixture.env.GEOHUB_QUEUE_URL!),
      GEOHUB_DLQ_URL: viaProxy(fixture.env.GEOHUB_DLQ_URL!),
      GEOHUB_REQUEST_TIMEOUT_MS: '1000',
      GEOHUB_IDLE_EXIT_MS: '8000',
    });
    workers.push(worker);
    await worker.waitForLog((l) => l.msg === 'receive failed; backing off');
    await new Promise((r) => setTimeout(r, 2_000));
    expect(worker.child.exitCode).toBeNull(); // still serving
    proxy.setMode('pass');
    expect((await worker.exited).code).toBe(0);
    await expectWholeRun(fixture, run.runId, tiles.length);
  });
});
