import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, inject, it } from 'vitest';
import { isAlive } from '../../../lib/process/process-table.js';
import { nodeEntry } from '../../../local/node-entry.js';
import { startWorkerPool } from '../../../local/pool/worker-pool.js';
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

  it('workers stop when the process that started them dies, even by SIGKILL', async () => {
    const parent = spawn(
      process.execPath,
      nodeEntry(new URL('../../support/start-pool-main.ts', import.meta.url)),
      {
        env: { ...process.env, ...env },
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
});
