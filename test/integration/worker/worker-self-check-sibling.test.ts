import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { processTable } from '../../../lib/process/process-table.js';
import { createFixture, enqueueTiles, seedRun, tileStates } from '../../support/run-fixture.js';
import { slowSource } from '../../support/slow-source.js';
import { stackClients } from '../../support/stack-clients.js';
import { tempDir } from '../../support/temp-dir.js';
import { waitUntil } from '../../support/wait-until.js';
import { spawnWorker, trackWorkers } from '../../support/worker-harness.js';

const { config, clients, env } = stackClients();
const workers = trackWorkers();
const stopped: number[] = [];
afterEach(() => {
  // The worker's teardown kills its tools' groups; a stopped orphan has no worker left to do it.
  for (const pid of stopped.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});
/** Holds a process where it is (SIGSTOP): it stays in the process table, under its name. */
const hold = (pid: number) => {
  process.kill(pid, 'SIGSTOP');
  stopped.push(pid);
};
afterAll(() => clients.destroy());

const ORPHAN_AGE_S = '2';
const ageOf = (pid: number) => processTable().find((p) => p.pid === pid)?.ageSeconds ?? -1;
const commandOf = (pid: number) => processTable().find((p) => p.pid === pid)?.command;

/** A worker busy warping the slow metatile in its engine; resolves with the engine's PID. */
async function busyWorker(overrides: Record<string, string> = {}) {
  const fixture = await createFixture(config, clients);
  const slow = slowSource(tempDir('geohub-slow-'));
  const run = await seedRun(fixture, slow.files, [slow.tile]);
  await enqueueTiles(fixture, run.runId, run.tasks);
  const worker = spawnWorker(env, { ...fixture.env, GEOHUB_ORPHAN_AGE_S: ORPHAN_AGE_S, ...overrides });
  workers.push(worker);
  const started = await worker.waitForLog(
    (l) => l.msg === 'tool started' && l.tileId === run.tasks[0]!.id,
    240_000,
  );
  const engine = Number(started.pid);
  // The engine takes its tool name when it starts on the request (warp-metatile.py).
  expect(await waitUntil(() => commandOf(engine) === 'gdal-metatile', 60_000, 10)).toBe(true);
  return { worker, engine };
}

describe('start-up self-check on a machine shared with other workers (issue 35)', () => {
  it("accepts work while a sibling worker's engine, older than the orphan age, is warping", async () => {
    // The sibling stays up (and its engine with it) until the test ends, idle or not.
    const sibling = await busyWorker({ GEOHUB_IDLE_EXIT_MS: '600000' });
    // Held mid-warp while the new worker starts, however long that takes on a loaded machine
    // (a warp that ended would leave an idle engine named python3: nothing to tell apart).
    hold(sibling.engine);
    expect(await waitUntil(() => ageOf(sibling.engine) > Number(ORPHAN_AGE_S) + 0.5, 30_000, 50)).toBe(true);

    const fixture = await createFixture(config, clients);
    const slow = slowSource(tempDir('geohub-quick-'));
    const run = await seedRun(fixture, slow.files, slow.near);
    await enqueueTiles(fixture, run.runId, run.tasks);
    const worker = spawnWorker(env, { ...fixture.env, GEOHUB_ORPHAN_AGE_S: ORPHAN_AGE_S });
    workers.push(worker);
    const exit = await worker.exited;
    // The sibling's engine was there, at work and older than the orphan age, the whole time.
    const engine = processTable().find((p) => p.pid === sibling.engine);
    expect(engine, JSON.stringify(engine)).toMatchObject({ command: 'gdal-metatile', state: 'T' });
    expect(processTable().find((p) => p.pid === sibling.engine)?.ppid).toBe(sibling.worker.pid);
    expect(worker.text.join('\n')).not.toContain('refusing work');
    expect(exit.code).toBe(0);
    expect([...(await tileStates(fixture.ledger, run.runId)).values()].map((t) => t.state)).toEqual([
      'DONE',
      'DONE',
    ]);
  }, 400_000);

  it('still refuses work (exit 78) for the engine a SIGKILLed worker left behind', async () => {
    const dead = await busyWorker();
    // Held where it is: otherwise the orphan ends its warp, reads end of file and exits.
    hold(dead.engine);
    dead.worker.child.kill('SIGKILL');
    await dead.worker.exited;
    expect(processTable().find((p) => p.pid === dead.engine)?.ppid).not.toBe(dead.worker.pid);
    expect(await waitUntil(() => ageOf(dead.engine) > Number(ORPHAN_AGE_S) + 0.5, 30_000, 50)).toBe(true);

    const fixture = await createFixture(config, clients);
    const worker = spawnWorker(env, { ...fixture.env, GEOHUB_ORPHAN_AGE_S: ORPHAN_AGE_S });
    workers.push(worker);
    expect((await worker.exited).code).toBe(78);
    expect(worker.text.join('\n')).toMatch(
      new RegExp(`orphaned gdal-metatile process ${dead.engine} running for \\d+ s .*its parent is gone`),
    );
  }, 400_000);
});
