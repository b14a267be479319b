import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { findFiles } from '../../support/find-files.js';
import { freezeGroup } from '../../support/freezer.js';
import { createFixture, enqueueTiles, seedRun, tileStates } from '../../support/run-fixture.js';
import { slowSource } from '../../support/slow-source.js';
import { stackClients } from '../../support/stack-clients.js';
import { partFirstEngine } from '../../support/stubborn-tool.js';
import { tempDir } from '../../support/temp-dir.js';
import { waitUntil } from '../../support/wait-until.js';
import { liveGroup, spawnWorker, trackWorkers } from '../../support/worker-harness.js';

const { config, clients, env } = stackClients();
const workers = trackWorkers();
afterAll(() => clients.destroy());

const debris = (dir: string) => findFiles(dir, (n) => n.endsWith('.part') || n.endsWith('.tif'));

function slowRun() {
  return slowSource(tempDir('geohub-slow-'));
}

describe('a tool that exceeds its budget, or cannot be killed', () => {
  it('over budget: PARKED, claim released, no .part, not retried; the rest of the run is done', async () => {
    const fixture = await createFixture(config, clients);
    const slow = slowRun();
    const run = await seedRun(fixture, slow.files, [slow.tile, ...slow.near]);
    await enqueueTiles(fixture, run.runId, run.tasks); // one metatile (message) per sub-tile
    const [slowTask] = run.tasks;

    const worker = spawnWorker(env, {
      ...fixture.env,
      // The engine writes its outputs once its warp is done: this one creates its .part first, so
      // the tool cut off mid-warp has one, and "no .part" below means the worker removed it.
      ...partFirstEngine(),
      // The slow tile needs ~6 s of warp on an idle machine; the empty neighbours well under 1 s
      // even beside two other busy test files: 3 s parks the one and not the others.
      GEOHUB_TOOL_TIMEOUT_MS: '3000',
      GEOHUB_KILL_GRACE_MS: '500',
    });
    workers.push(worker);
    const started = await worker.waitForLog((l) => l.msg === 'tool started' && l.tileId === slowTask!.id);
    const slowPart = `/${slowTask!.z}/${slowTask!.x}/${slowTask!.y}.tif.`;
    const parts = () =>
      findFiles(worker.scratch, (n) => n.endsWith('.part')).filter((p) => p.includes(slowPart));
    // The wrapper makes it as the tool starts: wait for it (a worker that exits first fails here).
    let seen = false;
    await waitUntil(
      () => {
        seen ||= parts().length === 1;
        return seen || worker.child.exitCode !== null;
      },
      30_000,
      5,
    );
    expect(seen).toBe(true);
    expect((await worker.exited).code).toBe(0);

    expect(liveGroup(Number(started.pid))).toEqual([]);
    expect(debris(worker.scratch)).toEqual([]);
    const states = await tileStates(fixture.ledger, run.runId);
    const parked = states.get(slowTask!.id)!;
    expect(parked).toMatchObject({
      state: 'PARKED',
      attempts: 1,
      lastError: { class: 'DeadlineExceededError' },
    });
    expect(parked.owner).toBeUndefined();
    expect(parked.leaseUntil).toBeUndefined();
    expect(run.tasks.map((t) => states.get(t.id)?.state)).toEqual(['PARKED', 'DONE', 'DONE']);
    // Not retried: one tool run for it, and nothing counted against the breaker.
    expect(worker.toolStarts().get(slowTask!.id)).toBe(1);
    expect((await fixture.ledger.getRun(run.runId))?.counters).toMatchObject({
      done: 2,
      parked: 1,
      failed: 0,
      retried: 0,
    });
    expect(await fixture.queue.depth()).toEqual({ visible: 0, inFlight: 0 });
    expect(
      worker.logs.find((l) => l.msg === 'metatile exceeded its budget; parked for a re-drive'),
    ).toMatchObject({
      error: { class: 'DeadlineExceededError' },
    });
  });

  it('SIGTERM: the logs say how many sub-tiles of the message remain on entry and are left for the retry', async () => {
    const fixture = await createFixture(config, clients);
    const slow = slowRun();
    const [before, after] = slow.near;
    const run = await seedRun(fixture, slow.files, [before!, slow.tile, after!]);
    await enqueueTiles(fixture, run.runId, run.tasks, 3);
    const slowTask = run.tasks[1]!;

    const first = spawnWorker(env, { ...fixture.env, GEOHUB_STOP_GRACE_MS: '3000' });
    workers.push(first);
    await first.waitForLog((l) => l.msg === 'tool started' && l.tileId === slowTask.id);
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(75);
    // The metatile is the unit of claim and marker: all of it remains on entry, and all of it
    // is left for the retry, the tile made before the SIGTERM included.
    expect(first.logs.find((l) => String(l.msg).startsWith('metatile claimed'))).toMatchObject({
      tiles: 3,
      remaining: 3,
      msg: 'metatile claimed: 3 sub-tiles remain',
    });
    expect(first.logs.find((l) => l.msg === 'metatile interrupted; back to the queue')).toMatchObject({
      left: 3,
    });

    const second = spawnWorker(env, fixture.env);
    workers.push(second);
    expect((await second.exited).code).toBe(0);
    expect(second.logs.find((l) => String(l.msg).startsWith('metatile claimed'))).toMatchObject({
      tiles: 3,
      remaining: 3,
    });
    const states = await tileStates(fixture.ledger, run.runId);
    expect([...states.values()].map((t) => t.state)).toEqual(['DONE', 'DONE', 'DONE']);
  });

  it('a tool group that survives SIGKILL: claim kept, message left, no more work taken, exit 1', async () => {
    const fixture = await createFixture(config, clients);
    const slow = slowRun();
    const run = await seedRun(fixture, slow.files, [slow.tile, ...slow.near]);
    await enqueueTiles(fixture, run.runId, run.tasks); // one message per sub-tile
    const [slowTask] = run.tasks;

    const worker = spawnWorker(env, {
      ...fixture.env,
      GEOHUB_TOOL_TIMEOUT_MS: '4000',
      GEOHUB_KILL_GRACE_MS: '300',
      GEOHUB_LEASE_MS: '60000',
    });
    workers.push(worker);
    const started = await worker.waitForLog(
      (l) => l.msg === 'tool started' && l.tileId === slowTask!.id,
      90_000,
    );
    // SQS may hand the other messages to this worker first; only the slow one matters here.
    const pgid = Number(started.pid);
    // Frozen once it has begun to write its output, as a tool stuck in the middle would be.
    const parts = () => findFiles(worker.scratch, (n) => n.endsWith('.part'));
    expect(await waitUntil(() => parts().length === 1, 3_500, 10)).toBe(true);
    const frozen = freezeGroup(pgid);
    onTestFinished(() => frozen.thaw());
    expect(frozen.pids.length).toBeGreaterThan(0);

    expect((await worker.exited).code).toBe(1);
    expect(liveGroup(pgid).length).toBeGreaterThan(0); // it really is still there
    const held = (await tileStates(fixture.ledger, run.runId)).get(slowTask!.id)!;
    expect(held.state).toBe('CLAIMED');
    expect(held.owner).toMatch(/.+/);
    expect(held.leaseUntil).toBeGreaterThan(Date.now());
    // The group may still write: its .part is not pretended away.
    expect(parts().length).toBe(1);
    // No more work taken after it; the slow sub-tile's message is still in flight, not deleted.
    const toolRunsAfter = worker.logs
      .slice(worker.logs.indexOf(started) + 1)
      .filter((l) => l.msg === 'tool started');
    expect(toolRunsAfter).toEqual([]);
    const depth = await fixture.queue.depth();
    expect(depth.visible + depth.inFlight).toBeGreaterThanOrEqual(1);
    expect(
      worker.logs.some((l) => l.level === 60 && String(l.msg).startsWith('a tool survived SIGKILL')),
    ).toBe(true);

    // A worker started on the same scratch refuses work: its self-check sees the debris.
    const next = spawnWorker(env, { ...fixture.env, GEOHUB_SCRATCH_DIR: worker.scratch });
    workers.push(next);
    expect((await next.exited).code).toBe(78);
    expect(next.text.join('\n')).toMatch(/stale partial output/);

    frozen.thaw();
    expect(await waitUntil(() => liveGroup(pgid).length === 0, 10_000, 50)).toBe(true);
  });
});
