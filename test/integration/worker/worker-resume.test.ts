import { afterAll, describe, expect, it } from 'vitest';
import { tileOutputKey } from '../../../lib/model/ids.js';
import { verifyRun } from '../../../lib/verify/verify-run.js';
import { createFixture, enqueueTiles, seedRun, tileStates } from '../../support/run-fixture.js';
import { stackClients } from '../../support/stack-clients.js';
import { gdalTileCover } from '../../support/tile-oracle.js';
import { spawnWorker, trackWorkers } from '../../support/worker-harness.js';

const { config, clients, env } = stackClients();
const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const workers = trackWorkers();
afterAll(() => clients.destroy());

const sum = (...maps: Map<string, number>[]) =>
  maps.flatMap((m) => [...m.values()]).reduce((a, b) => a + b, 0);

describe('spot-safe checkpoints', () => {
  it('SIGTERM mid-run: exit 75, the restart resumes from the first unmarked sub-tile', async () => {
    const fixture = await createFixture(config, clients);
    const tiles = gdalTileCover(RGB, 9);
    const run = await seedRun(fixture, [RGB], tiles);
    await enqueueTiles(fixture, run.runId, run.tasks);

    const first = spawnWorker(env, fixture.env);
    workers.push(first);
    let done = 0;
    await first.waitForLog((l) => l.msg === 'metatile done' && ++done === 4);
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(75);
    const marked = [...(await tileStates(fixture.ledger, run.runId)).values()].filter(
      (t) => t.state === 'DONE',
    );
    expect(marked.length).toBeGreaterThanOrEqual(4);
    expect(marked.length).toBeLessThan(tiles.length);

    const second = spawnWorker(env, fixture.env);
    workers.push(second);
    expect((await second.exited).code).toBe(0);
    const states = await tileStates(fixture.ledger, run.runId);
    expect([...states.values()].every((t) => t.state === 'DONE')).toBe(true);
    expect(states.size).toBe(tiles.length);
    // Nothing marked before the SIGTERM is redone; at most the in-flight sub-tile is.
    for (const t of marked) expect(second.toolStarts().get(t.tileId)).toBeUndefined();
    expect(sum(first.toolStarts(), second.toolStarts()) - tiles.length).toBeLessThanOrEqual(1);
    expect((await fixture.ledger.getRun(run.runId))?.counters.done).toBe(tiles.length);
  });

  it('a crash between upload and marker leaves no marker; the retry redoes that sub-tile alone', async () => {
    const fixture = await createFixture(config, clients);
    const tiles = gdalTileCover(RGB, 8);
    const run = await seedRun(fixture, [RGB], tiles);
    await enqueueTiles(fixture, run.runId, run.tasks);

    const first = spawnWorker(env, { ...fixture.env, GEOHUB_FAULT: 'crash-after-upload:3' });
    workers.push(first);
    expect((await first.exited).signal).toBe('SIGKILL');
    const afterCrash = await tileStates(fixture.ledger, run.runId);
    const crashed = [...afterCrash.values()].find((t) => t.state === 'CLAIMED')!;
    expect([...afterCrash.values()].filter((t) => t.state === 'DONE')).toHaveLength(2);
    // The object is there, the marker is not: the worst case is redundant work, not a hole.
    expect(crashed.output).toBeUndefined();
    expect(await fixture.store.head(tileOutputKey(run.runId, crashed))).toBeDefined();
    expect((await verifyRun(fixture.ledger, fixture.store, run.runId)).unmarked).toHaveLength(1);

    const second = spawnWorker(env, fixture.env);
    workers.push(second);
    expect((await second.exited).code).toBe(0);
    const states = await tileStates(fixture.ledger, run.runId);
    expect([...states.values()].every((t) => t.state === 'DONE')).toBe(true);
    expect(second.toolStarts().get(crashed.tileId)).toBe(1);
    for (const t of afterCrash.values()) {
      if (t.state === 'DONE') expect(second.toolStarts().get(t.tileId)).toBeUndefined();
    }
    expect(sum(first.toolStarts(), second.toolStarts())).toBe(tiles.length + 1);
    const report = await verifyRun(fixture.ledger, fixture.store, run.runId);
    expect(report).toMatchObject({ markers: tiles.length, objects: tiles.length, gaps: [], unmarked: [] });
  });

  it('a deleted output whose marker remains is reported as a gap, never silently refilled', async () => {
    const fixture = await createFixture(config, clients);
    const tiles = gdalTileCover(RGB, 7);
    const run = await seedRun(fixture, [RGB], tiles);
    await enqueueTiles(fixture, run.runId, run.tasks);
    const first = spawnWorker(env, fixture.env);
    workers.push(first);
    expect((await first.exited).code).toBe(0);

    const victim = run.tasks[0]!;
    const key = tileOutputKey(run.runId, victim);
    await fixture.store.delete(key);
    // A re-run of the whole run: every sub-tile is marked, so no tool work at all.
    await enqueueTiles(fixture, run.runId, run.tasks);
    const rerun = spawnWorker(env, fixture.env);
    workers.push(rerun);
    expect((await rerun.exited).code).toBe(0);
    expect(rerun.toolStarts().size).toBe(0);

    const report = await verifyRun(fixture.ledger, fixture.store, run.runId);
    expect(report.gaps).toEqual([{ tileId: victim.id, key, problem: 'missing' }]);
  });
});
