import { spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, inject, it } from 'vitest';
import { isAlive } from '../../../lib/process/process-table.js';
import { nodeEntry } from '../../../local/node-entry.js';
import { startWorkerPool } from '../../../local/pool/worker-pool.js';
import { tempDir } from '../../support/temp-dir.js';
import { waitUntil } from '../../support/wait-until.js';

const env = { ...inject('stackEnv'), GEOHUB_RECEIVE_WAIT_S: '1' };

describe('the local worker pool (the ECS service on a laptop)', () => {
  it('restarts a worker that exits, and stops every worker it started', async () => {
    const pool = startWorkerPool({ size: 2, env });
    try {
      expect(await waitUntil(() => pool.pids().length === 2, 10_000)).toBe(true);
      const [first] = pool.pids();
      process.kill(first!, 'SIGKILL');
      expect(await waitUntil(() => pool.pids().length === 2 && !pool.pids().includes(first!), 10_000)).toBe(
        true,
      );
      expect(pool.activity().some((w) => w.restarts === 1)).toBe(true);
    } finally {
      await pool.stop(5_000);
    }
    expect(pool.startedPids().filter(isAlive)).toEqual([]);
  });

  it('workers started before their environment is known load their code and wait for it, then start with it', async () => {
    let give: (e: Record<string, string>) => void = () => {};
    const later = new Promise<Record<string, string>>((resolve) => {
      give = resolve;
    });
    const said: Record<string, unknown>[] = [];
    const pool = startWorkerPool({
      size: 2,
      env: later,
      onLog: (_line, parsed) => parsed && said.push(parsed),
    });
    try {
      expect(await waitUntil(() => pool.pids().length === 2, 10_000)).toBe(true);
      // Long enough for their code to load: without the environment they neither start nor fail.
      await new Promise((r) => setTimeout(r, 3_000));
      expect(said).toEqual([]);
      expect(pool.exits()).toEqual([]);
      give(env);
      expect(await waitUntil(() => said.filter((l) => l.msg === 'worker started').length === 2, 20_000)).toBe(
        true,
      );
      // Each with its slot's own identity, as if the environment had been there at the spawn.
      const ids = said.filter((l) => l.msg === 'worker started').map((l) => String(l.worker));
      expect(ids.sort()).toEqual(
        pool
          .activity()
          .map((w) => `local-${w.slot}-1-${process.pid}`)
          .sort(),
      );
    } finally {
      await pool.stop(5_000);
    }
    expect(pool.startedPids().filter(isAlive)).toEqual([]);
  });

  it('a pool whose environment never comes stops its waiting workers', async () => {
    const never = Promise.reject(new Error('the stack did not start'));
    const pool = startWorkerPool({ size: 2, env: never });
    expect(await waitUntil(() => pool.pids().length === 2, 10_000)).toBe(true);
    await pool.stop(5_000);
    expect(pool.startedPids()).toHaveLength(2);
    expect(pool.startedPids().filter(isAlive)).toEqual([]);
  });

  it('workers stop when the process that started them dies, even by SIGKILL', async () => {
    const parent = spawn(
      process.execPath,
      nodeEntry(new URL('../../support/start-pool-main.ts', import.meta.url)),
      {
        // A parent killed by SIGKILL cannot remove its slots' scratch: it makes them in a
        // directory of this test's, removed with it.
        env: { ...process.env, ...env, TMPDIR: tempDir('geohub-pool-parent-') },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: parent.stdout! }).once('line', resolve);
        parent.once('exit', (code) => reject(new Error(`pool parent exited early (${code})`)));
      });
      const { pids } = JSON.parse(line) as { pids: number[] };
      expect(pids).toHaveLength(2);
      parent.kill('SIGKILL');
      expect(await waitUntil(() => pids.every((pid) => !isAlive(pid)), 15_000)).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it("cleans up only after a SIGKILL, as ECS does; after any other exit the next worker's self-check judges what was left", async () => {
    const pool = startWorkerPool({ size: 1, env });
    try {
      // Signals count once the worker has its handlers: after it says it started.
      const ready = () => pool.activity()[0]?.doing.msg === 'worker started';
      expect(await waitUntil(ready, 20_000)).toBe(true);
      const [scratch] = pool.scratchDirs();
      // Debris of a stop path gone wrong, planted where the worker's outputs go.
      const part = join(scratch!, 'left-behind.tif.0badc0de.part');
      writeFileSync(part, 'partial');
      const [first] = pool.pids();
      process.kill(first!, 'SIGTERM');
      expect(await waitUntil(() => pool.exits().length >= 2, 20_000)).toBe(true);
      // Not cleaned: recorded, and the next worker on the same scratch refused work.
      expect(pool.exits()[0]).toMatchObject({ pid: first, code: 75, signal: null, parts: [part] });
      expect(pool.exits()[1]).toMatchObject({ code: 78, parts: [part] });
      expect(pool.scratchDirs()).toEqual([scratch]);
      expect(existsSync(part)).toBe(true);

      rmSync(part);
      expect(await waitUntil(ready, 30_000)).toBe(true);
      const [third] = pool.pids();
      writeFileSync(part, 'partial');
      process.kill(third!, 'SIGKILL');
      expect(await waitUntil(() => pool.exits().length === 3 && pool.pids().length === 1, 20_000)).toBe(true);
      // Killed outright: its task's filesystem is discarded and the next worker gets a fresh one.
      expect(existsSync(scratch!)).toBe(false);
      expect(pool.scratchDirs()).not.toEqual([scratch]);
    } finally {
      await pool.stop(5_000);
    }
    expect(pool.scratchDirs()).toEqual([]);
    expect(pool.startedPids().filter(isAlive)).toEqual([]);
  });
});
