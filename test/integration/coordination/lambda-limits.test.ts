import { readdirSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import { readLambdaLimits } from '../../../local/statemachine/lambda-limits.js';
import { createLambdaPool } from '../../../local/statemachine/lambda-pool.js';
import { startTestHub } from '../../support/hub.js';
import { seedDoneRun } from '../../support/seed-markers.js';
import { stackClients } from '../../support/stack-clients.js';
import { waitUntil } from '../../support/wait-until.js';

const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;

describe('local Lambda tasks run within their serverless.yml limits', () => {
  const { clients, env, ledger, store } = stackClients();
  afterAll(() => clients.destroy());

  it('reads each function’s memory size and timeout from serverless.yml', () => {
    const limits = readLambdaLimits();
    expect(limits.finalize).toEqual({ memoryMiB: 2048, timeoutSeconds: 900 });
    expect(limits['check-progress']).toEqual({ memoryMiB: 512, timeoutSeconds: 30 });
  });

  it('a container started before its environment is known waits for it, then serves with it', async () => {
    const run = { runId: 'r-lambda-env-later', z: 14, x0: 8100, y0: 5100, side: 4 };
    await seedDoneRun({ ledger, store }, run, { everyObject: false });
    let give: (e: Record<string, string>) => void = () => {};
    const later = new Promise<Record<string, string>>((resolve) => {
      give = resolve;
    });
    const pool = createLambdaPool({ env: later, limits: readLambdaLimits() });
    try {
      let settled = false;
      const invocation = pool.invoke('finalize', { runId: run.runId }).finally(() => {
        settled = true;
      });
      await new Promise((r) => setTimeout(r, 2_000));
      expect(settled).toBe(false);
      give(env);
      await expect(invocation).resolves.toMatchObject({ status: 'SUCCEEDED' });
    } finally {
      await pool.stop();
    }
  });

  it('a prewarm or an invocation that comes after the stop starts no container', async () => {
    const threads = () => readdirSync('/proc/self/task').length;
    const pool = createLambdaPool({ env: new Promise(() => {}), limits: readLambdaLimits() });
    const before = threads();
    const warming = pool.prewarm(['check-progress']);
    // The same prewarm before the stop does start one: a thread of this process.
    expect(await waitUntil(() => threads() > before, 10_000)).toBe(true);
    await pool.stop();
    await warming;
    expect(await waitUntil(() => threads() <= before, 10_000)).toBe(true);
    try {
      await Promise.race([
        pool.prewarm(['check-progress', 'finalize']),
        new Promise((r) => setTimeout(r, 2_000)),
      ]);
      await expect(pool.invoke('check-progress', { runId: 'r-after-stop' })).rejects.toThrow(/stopped/);
      await new Promise((r) => setTimeout(r, 500));
      expect(threads()).toBeLessThanOrEqual(before);
    } finally {
      await pool.stop(); // whatever a failing prewarm started
    }
  });

  it('a task over its memory size fails with Runtime.OutOfMemory; the same task within it succeeds', async () => {
    const run = { runId: 'r-lambda-memory-limit', z: 14, x0: 8000, y0: 5000, side: 12 };
    await seedDoneRun({ ledger, store }, run, { everyObject: false });
    const limits = readLambdaLimits();
    const small = createLambdaPool({ env, limits: { finalize: { ...limits.finalize!, memoryMiB: 8 } } });
    try {
      await expect(small.invoke('finalize', { runId: run.runId })).rejects.toMatchObject({
        name: 'Runtime.OutOfMemory',
      });
    } finally {
      await small.stop();
    }
    expect((await ledger.getRun(run.runId))?.status).toBe('RUNNING');
    const real = createLambdaPool({ env, limits });
    try {
      await expect(real.invoke('finalize', { runId: run.runId })).resolves.toMatchObject({
        status: 'SUCCEEDED',
      });
    } finally {
      await real.stop();
    }
  });
});

describe('a pool stopped with an invocation in flight', () => {
  it('ends that invocation at once instead of leaving it, and its 30 s timer, pending', async () => {
    // A DynamoDB that accepts connections and never answers: the task hangs in its first request.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const env = inject('stackEnv');
    const port = (silent.address() as { port: number }).port;
    const pool = createLambdaPool({
      env: { ...env, GEOHUB_ENDPOINT_DYNAMODB: `http://127.0.0.1:${port}` },
      limits: { 'check-progress': readLambdaLimits()['check-progress']! },
    });
    try {
      const invocation = pool.invoke('check-progress', { runId: 'r-stopped-mid-invocation' });
      const outcome = invocation.then(
        () => 'resolved',
        (error: Error) => error.message,
      );
      expect(await waitUntil(() => sockets.size > 0, 10_000)).toBe(true); // the task is inside its request
      const stoppedAt = Date.now();
      await pool.stop();
      expect(await outcome).toBe("the check-progress function's container exited during an invocation");
      // Well inside the function's 30 s timeout and the SDK's 10 s request timeout.
      expect(Date.now() - stoppedAt).toBeLessThan(5_000);
    } finally {
      await pool.stop();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('a task over its timeout in a run', () => {
  let hub: LocalHub;
  beforeAll(async () => {
    hub = await startTestHub({ lambdaLimits: { finalize: { timeoutSeconds: 0.05 } } });
  });
  afterAll(async () => {
    await hub?.stop();
  });

  it('fails with Sandbox.Timedout, caught by the state machine: the run FAILED with that cause', async () => {
    const started = await hub.upload(RGB, { name: 'timeout.tif', job: { zoom: 8 } });
    if (started.outcome !== 'started') throw new Error(`not started: ${JSON.stringify(started)}`);
    const execution = await hub.executions.wait(started.executionArn);
    expect(execution.status).toBe('FAILED');
    expect(execution.states.slice(-3)).toEqual(['Finalize', 'MarkFailed', 'RunFailed']);
    const run = await hub.ledger.getRun(started.runId);
    expect(run?.status).toBe('FAILED');
    expect(run?.reason).toBe('Sandbox.Timedout: Task timed out after 0.05 seconds');
  });
});

describe('a hub without Lambda containers', () => {
  let hub: LocalHub;
  beforeAll(async () => {
    hub = await startTestHub({ lambdaLimits: false });
  });
  afterAll(async () => {
    await hub?.stop();
  });

  it('runs each task in the hub’s own process, its code loaded at the first call: a run succeeds', async () => {
    const started = await hub.upload(RGB, { name: 'in-process.tif', job: { zoom: 8 } });
    if (started.outcome !== 'started') throw new Error(`not started: ${JSON.stringify(started)}`);
    const execution = await hub.executions.wait(started.executionArn);
    expect(execution.status).toBe('SUCCEEDED');
    expect(execution.states).toEqual(
      expect.arrayContaining(['Split', 'Enqueue', 'CheckProgress', 'Finalize']),
    );
    const run = await hub.ledger.getRun(started.runId);
    expect(run?.status).toBe('SUCCEEDED');
    expect(run?.counters.done).toBe(run?.counters.total);
    expect(run?.counters.total).toBeGreaterThan(0);
  });
});
