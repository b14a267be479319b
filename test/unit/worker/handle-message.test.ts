import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { LedgerBusyError } from '../../../lib/ledger/errors.js';
import type { Metatile } from '../../../lib/model/metatile.js';
import type { RunHead, TileOutput } from '../../../lib/model/run.js';
import type { TileTask } from '../../../lib/model/tile.js';
import { ProcessGroupSurvivedError } from '../../../lib/process/errors.js';
import {
  InterruptedError,
  RunStoppedError,
  TileDataError,
  TileRetryableError,
} from '../../../worker/errors.js';
import { handleMessage } from '../../../worker/handle-message.js';
import type { HandleMessageDeps } from '../../../worker/handle-message-deps.js';
import { createStopController } from '../../../worker/stop-controller.js';
import { outputsOf, seedLedgerRun } from '../../support/ledger-run.js';
import { createMemoryLedger } from '../../support/memory-ledger.js';
import { createMemoryStore } from '../../support/memory-store.js';
import { createRecordingQueue, received } from '../../support/recording-queue.js';

type Tool = (
  run: RunHead,
  tiles: readonly TileTask[],
  signal: AbortSignal,
) => Promise<ReadonlyMap<string, TileOutput>>;

async function setup(tool?: Tool, now = () => Date.now()) {
  const ledger = createMemoryLedger({ now });
  const queue = createRecordingQueue();
  const { runId, metatiles } = await seedLedgerRun(ledger, 1, 4);
  const metatile = metatiles[0]!;
  const calls: string[][] = [];
  const deps: HandleMessageDeps = {
    ledger,
    queue,
    store: createMemoryStore(),
    log: pino({ level: 'silent' }),
    stop: createStopController({ graceMs: 60_000, reserveMs: 1_000 }),
    workerId: 'w1',
    leaseMs: 60_000,
    runWatchMs: 60_000,
    retryDelaySeconds: 7,
    now,
    processTiles: async (run, { tiles }, signal) => {
      calls.push(tiles.map((t) => t.id));
      return tool ? tool(run, tiles, signal) : outputsOf(runId, metatile);
    },
  };
  const message = (receiveCount = 1, m: Metatile = metatile) =>
    received({ v: 1, runId, tiles: m.tiles }, receiveCount);
  return { ledger, queue, runId, metatile, deps, calls, message };
}

const failingWith =
  (error: unknown): Tool =>
  async () => {
    throw error;
  };

describe('handleMessage: one message, one metatile', () => {
  it('makes the metatile, writes one marker for its tiles, then deletes the message', async () => {
    const { ledger, queue, runId, metatile, deps, calls, message } = await setup();
    expect(await handleMessage(deps, message())).toBe('completed');
    expect(calls).toEqual([metatile.tiles.map((t) => t.id)]);
    const record = await ledger.getMetatile(runId, metatile.id);
    expect(record).toMatchObject({ state: 'DONE', doneBy: 'w1' });
    expect(Object.keys(record?.outputs ?? {})).toHaveLength(4);
    expect((await ledger.getRun(runId))?.counters.done).toBe(4);
    expect(queue.actions).toEqual(['delete m1']);
    // One claim and one marker: two writes for four sub-tiles.
    expect(ledger.writes).toBe(1 + 2);
  });

  it('skips a metatile already marked: no tool work, no write, the message deleted', async () => {
    const { ledger, queue, deps, calls, message } = await setup();
    await handleMessage(deps, message());
    const writes = ledger.writes;
    expect(await handleMessage(deps, message(2))).toBe('completed');
    expect(calls).toHaveLength(1);
    expect(ledger.writes).toBe(writes);
    expect(queue.actions).toEqual(['delete m1', 'delete m1']);
  });

  it('reads the run and the metatile side by side: a skip costs one round trip to the ledger', async () => {
    const { ledger, deps, message } = await setup();
    await handleMessage(deps, message());
    let inFlight = 0;
    let most = 0;
    const timed =
      <A extends unknown[], R>(f: (...a: A) => Promise<R>) =>
      async (...a: A): Promise<R> => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        try {
          return await f(...a);
        } finally {
          inFlight -= 1;
        }
      };
    const slow = { ...ledger, getRunHead: timed(ledger.getRunHead), getMetatile: timed(ledger.getMetatile) };
    expect(await handleMessage({ ...deps, ledger: slow }, message(2))).toBe('completed');
    expect(most).toBe(2);
  });

  it('bad data: FAILED and counted once, never retried', async () => {
    const { ledger, queue, runId, metatile, deps, message } = await setup(
      failingWith(new TileDataError('bad block')),
    );
    expect(await handleMessage(deps, message())).toBe('completed');
    expect(await ledger.getMetatile(runId, metatile.id)).toMatchObject({
      state: 'FAILED',
      error: { class: 'TileDataError' },
    });
    expect((await ledger.getRun(runId))?.counters).toMatchObject({ failed: 4, retried: 0 });
    expect(queue.actions).toEqual(['delete m1']);
  });

  it('an interruption: claim back as QUEUED, counted apart, message requeued fresh', async () => {
    const { ledger, queue, runId, metatile, deps, message } = await setup(
      failingWith(new InterruptedError('SIGTERM')),
    );
    expect(await handleMessage(deps, message())).toBe('interrupted');
    expect(await ledger.getMetatile(runId, metatile.id)).toMatchObject({ state: 'QUEUED', interruptions: 1 });
    expect((await ledger.getRun(runId))?.counters).toMatchObject({ interrupted: 4, retried: 0, failed: 0 });
    expect(queue.actions).toEqual(['requeue m1']);
  });

  it('a cancelled run: CANCELLED and counted, message deleted', async () => {
    const { ledger, queue, runId, metatile, deps, message } = await setup(
      failingWith(new RunStoppedError('r', 'CANCELLED', 'operator')),
    );
    expect(await handleMessage(deps, message())).toBe('completed');
    expect((await ledger.getMetatile(runId, metatile.id))?.state).toBe('CANCELLED');
    expect((await ledger.getRun(runId))?.counters.cancelled).toBe(4);
    expect(queue.actions).toEqual(['delete m1']);
  });

  it('a retryable failure: QUEUED with its error, retried after the delay', async () => {
    const { ledger, queue, runId, metatile, deps, message } = await setup(
      failingWith(new TileRetryableError('503')),
    );
    expect(await handleMessage(deps, message())).toBe('retry-later');
    expect(await ledger.getMetatile(runId, metatile.id)).toMatchObject({
      state: 'QUEUED',
      lastError: { class: 'TileRetryableError' },
    });
    expect((await ledger.getRun(runId))?.counters.retried).toBe(4);
    expect(queue.actions).toEqual(['visibility m1 7']);
  });

  it('a busy ledger at the marker: given back uncounted, the breaker sees nothing', async () => {
    const { ledger, queue, runId, metatile, deps, message } = await setup();
    const claim = ledger.claim.bind(ledger);
    ledger.claim = async (...args) => {
      const result = await claim(...args);
      if (result.outcome !== 'claimed') return result;
      const markDone = async () => {
        throw new LedgerBusyError('busy');
      };
      return { ...result, claim: { ...result.claim, markDone } };
    };
    expect(await handleMessage(deps, message())).toBe('interrupted');
    ledger.claim = claim;
    expect((await ledger.getMetatile(runId, metatile.id))?.state).toBe('QUEUED');
    expect((await ledger.getRun(runId))?.counters).toMatchObject({ retried: 0, failed: 0, done: 0 });
    expect(queue.actions).toEqual(['requeue m1']);
  });

  it('a busy ledger before the claim: the message requeued fresh, nothing claimed', async () => {
    const { ledger, queue, runId, metatile, deps, calls, message } = await setup();
    ledger.claim = async () => {
      throw new LedgerBusyError('busy');
    };
    expect(await handleMessage(deps, message())).toBe('interrupted');
    expect(calls).toHaveLength(0);
    expect(await ledger.getMetatile(runId, metatile.id)).toBeUndefined();
    expect(queue.actions).toEqual(['requeue m1']);
  });

  it('a process group that survived SIGKILL: rethrown, claim kept, message left alone', async () => {
    const survived = new ProcessGroupSurvivedError('process group 42 survived SIGKILL');
    const { ledger, queue, runId, metatile, deps, message } = await setup(failingWith(survived));
    await expect(handleMessage(deps, message())).rejects.toBe(survived);
    expect(await ledger.getMetatile(runId, metatile.id)).toMatchObject({ state: 'CLAIMED', owner: 'w1' });
    expect(queue.actions).toEqual([]);
  });

  it('a run already stopped: the metatile parked without a claim, the message deleted', async () => {
    const { ledger, queue, runId, metatile, deps, calls, message } = await setup();
    await ledger.updateRun(runId, { status: 'DRAINING' });
    expect(await handleMessage(deps, message())).toBe('dropped');
    expect(calls).toHaveLength(0);
    expect(await ledger.getMetatile(runId, metatile.id)).toMatchObject({ state: 'PARKED', attempts: 0 });
    expect((await ledger.getRun(runId))?.counters.parked).toBe(4);
    expect(queue.actions).toEqual(['delete m1']);
  });

  it('a stopped run whose metatile is still leased: back as a fresh copy once the lease lapses, then parked', async () => {
    let clock = 1_000_000;
    const { ledger, queue, runId, metatile, deps, calls, message } = await setup(undefined, () => clock);
    await ledger.claim(runId, metatile, 'dying', 30_000);
    await ledger.updateRun(runId, { status: 'CANCELLED' });
    expect(await handleMessage(deps, message(2))).toBe('retry-later');
    expect(queue.actions).toEqual(['requeue m1 31']);
    clock += 31_000;
    expect(await handleMessage(deps, message(3))).toBe('dropped');
    expect(calls).toHaveLength(0);
    expect((await ledger.getMetatile(runId, metatile.id))?.state).toBe('CANCELLED');
    expect((await ledger.getRun(runId))?.counters.cancelled).toBe(4);
    expect(queue.actions).toEqual(['requeue m1 31', 'delete m1']);
  });

  it('a live claim elsewhere: a fresh copy comes back just after that lease ends, no receive spent', async () => {
    let clock = 1_000_000;
    const { ledger, queue, runId, metatile, deps, calls, message } = await setup(undefined, () => clock);
    await ledger.claim(runId, metatile, 'other', 30_000);
    clock += 10_000;
    expect(await handleMessage(deps, message(2))).toBe('retry-later');
    expect(calls).toHaveLength(0);
    expect(queue.actions).toEqual(['requeue m1 21']);
  });

  it('a redelivery after its worker died: requeued fresh, not spending the receive budget', async () => {
    let clock = 1_000_000;
    const { ledger, queue, runId, metatile, deps, calls, message } = await setup(undefined, () => clock);
    await ledger.claim(runId, metatile, 'dead', 30_000);
    clock += 31_000;
    expect(await handleMessage(deps, message(2))).toBe('interrupted');
    expect(calls).toHaveLength(0);
    expect(queue.actions).toEqual(['requeue m1']);
  });

  it('a malformed body or an unknown run: dead-lettered with the reason', async () => {
    const { queue, deps } = await setup();
    expect(await handleMessage(deps, received('{"v":1}'))).toBe('malformed');
    expect(
      await handleMessage(
        deps,
        received({ v: 1, runId: 'r-nowhere-1', tiles: [{ id: '0123456789abcdef', z: 1, x: 0, y: 0 }] }),
      ),
    ).toBe('unknown-run');
    expect(queue.actions).toEqual([
      expect.stringMatching(/^dead-letter m1 invalid message: /),
      'dead-letter m1 unknown run r-nowhere-1',
    ]);
  });
});
