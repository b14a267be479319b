import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive } from '../../../../lib/process/process-table.js';
import { killWorkers } from '../../../../local/chaos/kill-workers.js';
import { holdsMetatile, reclaimSpotWorkers } from '../../../../local/chaos/reclaim-spot-workers.js';
import { seededRandom } from '../../../../local/faults/seeded-random.js';
import type { WorkerActivity, WorkerPool } from '../../../../local/pool/worker-pool.js';

// Real processes stand in for workers: the loops signal them, and how each ended is the record.
// A signalled one leaves the pool's activity as soon as the kernel ends it, as a worker does.
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

function standIns(n: number, capacity: (i: number) => 'spot' | 'on-demand', msg: (i: number) => string) {
  const started = Array.from({ length: n }, () => spawn('sleep', ['60'], { stdio: 'ignore' }));
  children.push(...started);
  const exits = started.map(
    (c) => new Promise<string | null>((r) => c.once('exit', (_, signal) => r(signal))),
  );
  const pool = {
    activity: (): WorkerActivity[] =>
      started.flatMap((c, i) =>
        isAlive(c.pid!)
          ? [
              {
                slot: i,
                pid: c.pid!,
                generation: 0,
                restarts: 0,
                capacity: capacity(i),
                doing: { msg: msg(i), at: new Date().toISOString() },
              },
            ]
          : [],
      ),
  } as unknown as WorkerPool;
  return { pool, exits };
}

describe('the chaos kill loops', () => {
  it('killWorkers deals SIGKILL or SIGTERM to live workers until maxKills, and counts what it sent', async () => {
    const { pool, exits } = standIns(
      3,
      () => 'spot',
      () => 'tool started',
    );
    const kills = await killWorkers(
      pool,
      new Promise(() => {}),
      () => false,
      [5, 10],
      seededRandom(7),
      Date.now() + 30_000,
      3,
    );
    expect(kills.sigkill + kills.sigterm).toBe(3);
    const signals = await Promise.all(exits);
    expect(signals.filter((s) => s === 'SIGKILL')).toHaveLength(kills.sigkill);
    expect(signals.filter((s) => s === 'SIGTERM')).toHaveLength(kills.sigterm);
  });

  it('a worker holds a metatile from its claim to its end, whatever it is doing meanwhile', () => {
    const held = ['metatile claimed: 16 sub-tiles remain', 'source access chosen', 'tool started'];
    const free = [
      'worker started',
      'metatile done',
      'metatile already accounted for; skipped',
      'worker idle',
    ];
    expect(held.map(holdsMetatile)).toEqual([true, true, true]);
    expect(free.map(holdsMetatile)).toEqual([false, false, false, false]);
  });

  it('reclaimSpotWorkers only SIGTERMs spot workers with a tool running, and stops when the run ends', async () => {
    // 0: spot, busy; 1: on-demand, busy; 2: spot, idle.
    const { pool, exits } = standIns(
      3,
      (i) => (i === 1 ? 'on-demand' : 'spot'),
      (i) => (i === 2 ? 'worker idle' : 'tool started'),
    );
    let ended = false;
    const run = new Promise<void>((resolve) => setTimeout(() => resolve(), 1_000)).then(() => {
      ended = true;
    });
    const kills = await reclaimSpotWorkers(
      pool,
      run,
      () => ended,
      [5, 10],
      seededRandom(3),
      Date.now() + 30_000,
    );
    expect(kills).toEqual({ sigkill: 0, sigterm: 1 });
    expect(await exits[0]).toBe('SIGTERM');
    expect(pool.activity().map((w) => w.slot)).toEqual([1, 2]);
  });
});
