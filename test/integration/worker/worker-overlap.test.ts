import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { countClaims } from '../../../lib/ledger/tile-records.js';
import { verifyRun } from '../../../lib/verify/verify-run.js';
import { findFiles } from '../../support/find-files.js';
import { waitForWarp } from '../../support/mid-warp.js';
import { createFixture, enqueueTiles, type Fixture, seedRun, tileStates } from '../../support/run-fixture.js';
import { slowSource } from '../../support/slow-source.js';
import { stackClients } from '../../support/stack-clients.js';
import { tempDir } from '../../support/temp-dir.js';
import { gdalTileCover } from '../../support/tile-oracle.js';
import { liveGroup, spawnWorker, trackWorkers, type WorkerHandle } from '../../support/worker-harness.js';

const { config, clients, env } = stackClients();
const workers = trackWorkers();
afterAll(() => clients.destroy());

const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const at = (line: Record<string, unknown>) => Date.parse(String(line.time));
const toolLines = (w: WorkerHandle) => w.logs.filter((l) => l.msg === 'tool started');
const toolPids = (w: WorkerHandle) => [...new Set(toolLines(w).map((l) => Number(l.pid)))];
const scratchLeft = (w: WorkerHandle) =>
  findFiles(w.scratch, (n) => n.endsWith('.part') || n.endsWith('.tif'));

/**
 * A worker whose uploads of the run's tiles wait while a flag file exists (GEOHUB_FAULT
 * hold-upload: a slow S3), so its first metatile is still uploading when the next one's tool runs.
 */
function heldUploads(fixture: Fixture, runId: string, extra: Record<string, string> = {}) {
  const flag = join(tempDir('geohub-hold-'), 'held');
  writeFileSync(flag, '');
  const worker = spawnWorker(env, {
    ...fixture.env,
    GEOHUB_FAULT: `hold-upload:tiles/${runId}/:${flag}`,
    ...extra,
  });
  workers.push(worker);
  return { worker, release: () => rmSync(flag, { force: true }) };
}

/**
 * Two metatiles in flight in one worker: a quick one first (its upload held), then the slow
 * source's metatile, whose warp takes seconds. Returns once the slow tool is running.
 */
async function twoInFlight(extra: Record<string, string> = {}) {
  const fixture = await createFixture(config, clients);
  const slow = slowSource(tempDir('geohub-slow-'));
  // z12 x835 is in the 4×4 block left of x836: two metatiles, two messages.
  const run = await seedRun(fixture, slow.files, [slow.near[0]!, slow.tile]);
  const [quick, heavy] = run.tasks;
  const { worker, release } = heldUploads(fixture, run.runId, extra);
  onTestFinished(release);
  await enqueueTiles(fixture, run.runId, [quick!]);
  await worker.waitForLog((l) => l.msg === 'tool started' && l.tileId === quick!.id);
  await enqueueTiles(fixture, run.runId, [heavy!]);
  const heavyTool = await worker.waitForLog((l) => l.msg === 'tool started' && l.tileId === heavy!.id);
  // Warping (named, its .part files touched), not a fixed sleep that a loaded machine outlasts.
  expect(await waitForWarp(Number(heavyTool.pid), worker.scratch)).toBe(true);
  expect(liveGroup(Number(heavyTool.pid)).length).toBeGreaterThan(0);
  // Both claimed, neither marked: the first one's upload is held, the second is in its tool.
  const states = await tileStates(fixture.ledger, run.runId);
  expect([...states.values()].map((t) => t.state)).toEqual(['CLAIMED', 'CLAIMED']);
  return { fixture, run, quick: quick!, heavy: heavy!, worker, release, heavyPid: Number(heavyTool.pid) };
}

describe('a worker overlaps a metatile’s uploads and marker with the next metatile’s tool', () => {
  it('the next tool starts before the previous marker; SIGTERM with both in flight finishes both, objects before markers', async () => {
    const fixture = await createFixture(config, clients);
    // Three sub-tiles, one message (one metatile) each.
    const run = await seedRun(fixture, [RGB], gdalTileCover(RGB, 9).slice(0, 3));
    const { worker, release } = heldUploads(fixture, run.runId);
    await enqueueTiles(fixture, run.runId, run.tasks);
    // Two tools have started while the first metatile's uploads are held: no marker yet.
    expect(await waitForTools(worker, 2)).toBe(true);
    expect(worker.logs.filter((l) => l.msg === 'metatile done')).toEqual([]);
    expect(await objectCount(fixture, run.runId)).toBe(0);
    expect(
      [...(await tileStates(fixture.ledger, run.runId)).values()].filter((t) => t.state === 'DONE'),
    ).toEqual([]);

    worker.child.kill('SIGTERM');
    release();
    expect((await worker.exited).code).toBe(75);

    const done = worker.logs.filter((l) => l.msg === 'metatile done');
    expect(done).toHaveLength(2);
    const [firstTool, secondTool] = toolLines(worker);
    // Overlap: the second metatile's tool started before the first metatile's marker.
    expect(at(secondTool!)).toBeLessThan(at(done[0]!));
    expect(firstTool!.tileId).not.toBe(secondTool!.tileId);
    // Both in flight were finished within the grace; the third message went back untouched.
    const states = await tileStates(fixture.ledger, run.runId);
    const marked = [...states.values()].filter((t) => t.state === 'DONE').map((t) => t.tileId);
    expect(marked.sort()).toEqual([firstTool!.tileId, secondTool!.tileId].sort());
    expect(toolLines(worker)).toHaveLength(2);
    expect(await countClaims(fixture.ledger, run.runId)).toBe(0);
    const report = await verifyRun(fixture.ledger, fixture.store, run.runId);
    expect(report).toMatchObject({ markers: 2, objects: 2, gaps: [], unmarked: [] });
    for (const pid of toolPids(worker)) expect(liveGroup(pid)).toEqual([]);
    expect(scratchLeft(worker)).toEqual([]);
    expect(await fixture.queue.depth()).toEqual({ visible: 1, inFlight: 0 });
  });

  it('SIGTERM with no time left and two in flight: both tools dead, no .part, both claims released, only they are redone', async () => {
    // A stop grace no longer than the cleanup reserve: in-flight work cannot finish in it.
    const { fixture, run, quick, heavy, worker, heavyPid } = await twoInFlight({
      GEOHUB_STOP_GRACE_MS: '3000',
    });
    worker.child.kill('SIGTERM');
    expect((await worker.exited).code).toBe(75);
    for (const pid of toolPids(worker)) expect(liveGroup(pid)).toEqual([]);
    expect(liveGroup(heavyPid)).toEqual([]);
    expect(scratchLeft(worker)).toEqual([]);
    const states = await tileStates(fixture.ledger, run.runId);
    for (const t of [quick, heavy]) {
      const s = states.get(t.id)!;
      expect(s).toMatchObject({ state: 'QUEUED', interruptions: 1 });
      expect(s.owner).toBeUndefined();
      expect(s.output).toBeUndefined();
    }
    expect(await countClaims(fixture.ledger, run.runId)).toBe(0);
    expect((await fixture.ledger.getRun(run.runId))?.counters).toMatchObject({ interrupted: 2, failed: 0 });
    // The held upload never reached S3, and no marker exists: nothing to contradict.
    expect(await verifyRun(fixture.ledger, fixture.store, run.runId)).toMatchObject({ markers: 0, gaps: [] });

    const second = spawnWorker(env, fixture.env);
    workers.push(second);
    expect((await second.exited).code).toBe(0);
    const after = await tileStates(fixture.ledger, run.runId);
    expect([...after.values()].map((t) => t.state)).toEqual(['DONE', 'DONE']);
    // Redone: exactly the two metatiles in flight at the SIGTERM, each once.
    expect(second.toolStarts()).toEqual(new Map([...[quick, heavy].map((t) => [t.id, 1] as const)]));
    expect(await verifyRun(fixture.ledger, fixture.store, run.runId)).toMatchObject({
      markers: 2,
      objects: 2,
      gaps: [],
      unmarked: [],
    });
  });

  it('a run cancelled with two in flight: both tools dead, no .part, no claim held, both CANCELLED', async () => {
    const { fixture, run, worker, heavyPid } = await twoInFlight();
    await fixture.ledger.updateRun(run.runId, { status: 'CANCELLED', reason: 'operator stop' });
    expect((await worker.exited).code).toBe(0);
    expect(liveGroup(heavyPid)).toEqual([]);
    for (const pid of toolPids(worker)) expect(liveGroup(pid)).toEqual([]);
    expect(scratchLeft(worker)).toEqual([]);
    const states = await tileStates(fixture.ledger, run.runId);
    expect([...states.values()].map((t) => t.state)).toEqual(['CANCELLED', 'CANCELLED']);
    for (const s of states.values()) expect(s.owner).toBeUndefined();
    expect(await countClaims(fixture.ledger, run.runId)).toBe(0);
    expect((await fixture.ledger.getRun(run.runId))?.counters.cancelled).toBe(2);
    expect(await verifyRun(fixture.ledger, fixture.store, run.runId)).toMatchObject({ markers: 0, gaps: [] });
    expect(await fixture.queue.depth()).toEqual({ visible: 0, inFlight: 0 });
  });
});

async function waitForTools(worker: WorkerHandle, n: number): Promise<boolean> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    // Tool work started, by sub-tile (one per metatile here): one engine serves both requests.
    if (toolLines(worker).length >= n) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

async function objectCount(fixture: Fixture, runId: string): Promise<number> {
  let n = 0;
  for await (const _ of fixture.store.list(`tiles/${runId}/`)) n += 1;
  return n;
}
