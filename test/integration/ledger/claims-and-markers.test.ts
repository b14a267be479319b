import { afterAll, describe, expect, it } from 'vitest';
import { createAwsClients } from '../../../lib/aws/clients.js';
import { PAGE_ITEMS } from '../../../lib/ledger/dynamo/query-items.js';
import { createDynamoLedger } from '../../../lib/ledger/dynamodb-ledger.js';
import { LeaseLostError } from '../../../lib/ledger/errors.js';
import { listTiles } from '../../../lib/ledger/tile-records.js';
import type { TileState } from '../../../lib/model/run.js';
import { claimAs, outputsOf, seedLedgerRun } from '../../support/ledger-run.js';
import { stackClients } from '../../support/stack-clients.js';

type MiddlewareStack = { add(middleware: unknown, options: Record<string, unknown>): void };

const { config, clients, ledger } = stackClients();
afterAll(() => clients.destroy());

describe('claims and markers on DynamoDB Local', () => {
  // Catches: a claim condition that lets a live claim be taken (two workers on one metatile).
  it('eight workers racing for the same metatiles: one claim each, counters exact', async () => {
    const { runId, metatiles } = await seedLedgerRun(ledger, 12, 16);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, w) =>
        Promise.all(
          metatiles.map(async (m) => {
            const claim = await ledger.claim(runId, m, `w${w}`, 60_000);
            if (claim.outcome !== 'claimed') return 0;
            await claim.claim.markDone(outputsOf(runId, m), 5);
            return 1;
          }),
        ),
      ),
    );
    expect(results.flat().reduce((a: number, b) => a + b, 0)).toBe(12);
    const run = await ledger.getRun(runId);
    expect(run?.counters).toMatchObject({ total: 192, done: 192, failed: 0, retried: 0 });
    // Every sub-tile has its own marker output, read back through one Query per run.
    const tiles = [];
    for await (const t of listTiles(ledger, runId)) tiles.push(t);
    expect(tiles).toHaveLength(192);
    expect(new Set(tiles.map((t) => t.output?.key)).size).toBe(192);
    expect(tiles.every((t) => t.state === 'DONE' && t.output?.etag === `e-${t.tileId}`)).toBe(true);
  });

  it('a metatile costs one claim and one marker write: ≤ 0.2 write requests per sub-tile', async () => {
    const counted = new Map<string, number>();
    const counting = createAwsClients(config, {
      onRequest: (_s, command) => counted.set(command, (counted.get(command) ?? 0) + 1),
    });
    try {
      const counter = createDynamoLedger(counting.documents, config.table);
      const { runId, metatiles } = await seedLedgerRun(ledger, 4, 16);
      for (const m of metatiles) {
        await (await claimAs(counter, runId, m, 'w')).markDone(outputsOf(runId, m), 1);
      }
      const writes =
        (counted.get('UpdateItemCommand') ?? 0) + (counted.get('TransactWriteItemsCommand') ?? 0);
      expect(writes).toBe(8);
      expect(writes / 64).toBeLessThanOrEqual(0.2);
      expect((await ledger.getRun(runId))?.counters.done).toBe(64);
    } finally {
      counting.destroy();
    }
  });

  it('a parallel listing reads a small run in one request, and a run that pages by leading digit, each metatile once', async () => {
    const counted = new Map<string, number>();
    const counting = createAwsClients(config, {
      onRequest: (_s, command) => counted.set(command, (counted.get(command) ?? 0) + 1),
    });
    const listAll = async (runId: string, states?: readonly TileState[]) => {
      counted.clear();
      const ids: string[] = [];
      const counter = createDynamoLedger(counting.documents, config.table);
      for await (const m of counter.listMetatiles(runId, { parallel: true, ...(states ? { states } : {}) }))
        ids.push(m.metatileId);
      return { ids, queries: counted.get('QueryCommand') ?? 0 };
    };
    try {
      const small = await seedLedgerRun(ledger, 12, 1);
      await Promise.all(small.metatiles.map((m) => ledger.claim(small.runId, m, 'w', 60_000)));
      const one = await listAll(small.runId);
      expect(one.queries).toBe(1);
      expect(new Set(one.ids)).toEqual(new Set(small.metatiles.map((m) => m.id)));

      // Past one page (PAGE_ITEMS): the first page's digit goes on from where it stopped, the
      // later digits are read side by side, and no metatile is read twice or missed.
      const large = await seedLedgerRun(ledger, 3 * PAGE_ITEMS + 7, 1);
      for (let i = 0; i < large.metatiles.length; i += 25)
        await Promise.all(
          large.metatiles.slice(i, i + 25).map((m) => ledger.claim(large.runId, m, 'w', 60_000)),
        );
      const many = await listAll(large.runId);
      expect(many.ids).toHaveLength(large.metatiles.length);
      expect(new Set(many.ids)).toEqual(new Set(large.metatiles.map((m) => m.id)));
      // One query paging alone would take ceil(n / PAGE_ITEMS) requests; the fan-out takes more, side by side.
      const sequential = Math.ceil(large.metatiles.length / PAGE_ITEMS);
      expect(many.queries).toBeGreaterThan(sequential);
      expect(many.queries).toBeLessThanOrEqual(1 + 16 + sequential);
      // Filtered to a state no metatile is in: pages come back empty, the fan-out still ends.
      const none = await listAll(large.runId, ['FAILED']);
      expect(none.ids).toEqual([]);
      expect(none.queries).toBeGreaterThan(1);
    } finally {
      counting.destroy();
    }
  });

  it('a lease that expired and was taken over cannot be marked, extended or released by its old owner', async () => {
    const { runId, metatiles } = await seedLedgerRun(ledger, 1, 4);
    const m = metatiles[0]!;
    const old = await claimAs(ledger, runId, m, 'old', 1);
    await new Promise((r) => setTimeout(r, 20));
    const taken = await ledger.claim(runId, m, 'new', 60_000);
    expect(taken).toMatchObject({ outcome: 'claimed', attempts: 2 });
    await expect(old.markDone(outputsOf(runId, m), 1)).rejects.toBeInstanceOf(LeaseLostError);
    await expect(old.extend()).rejects.toBeInstanceOf(LeaseLostError);
    await old.release({ state: 'QUEUED', error: { class: 'E', message: 'x' } });
    expect((await ledger.getMetatile(runId, m.id))?.owner).toBe('new');
    if (taken.outcome === 'claimed') await taken.claim.markDone(outputsOf(runId, m), 1);
    expect((await ledger.getRun(runId))?.counters).toMatchObject({ done: 4, retried: 0 });
    expect(await ledger.claim(runId, m, 'late', 60_000)).toEqual({ outcome: 'done' });
  });

  // Catches: a claim retried by the SDK after its response was lost, taken for another
  // worker's live claim: the worker leaves the metatile CLAIMED and works on something else.
  it('a claim whose response is lost after it landed is still ours on the SDK retry', async () => {
    const lossy = createAwsClients(config);
    let lost = 0;
    (lossy.dynamodb.middlewareStack as unknown as MiddlewareStack).add(
      (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) =>
        async (args: unknown) => {
          const result = await next(args);
          if (context.commandName !== 'UpdateItemCommand' || lost > 0) return result;
          lost += 1;
          // DynamoDB applied the write; the caller sees what a dropped connection looks like.
          throw Object.assign(new Error('socket hang up'), { name: 'TimeoutError', code: 'ECONNRESET' });
        },
      { step: 'finalizeRequest', priority: 'low', name: 'loseFirstResponse' },
    );
    try {
      const lossyLedger = createDynamoLedger(lossy.documents, config.table);
      const { runId, metatiles } = await seedLedgerRun(ledger, 1, 16);
      const claim = await lossyLedger.claim(runId, metatiles[0]!, 'w', 60_000);
      expect(lost).toBe(1);
      expect(claim).toMatchObject({ outcome: 'claimed', attempts: 1 });
      // Still exclusive: another worker is told it is held, and ours can be marked.
      expect((await ledger.claim(runId, metatiles[0]!, 'other', 60_000)).outcome).toBe('held');
      if (claim.outcome === 'claimed') await claim.claim.markDone(outputsOf(runId, metatiles[0]!), 1);
      expect((await ledger.getRun(runId))?.counters).toMatchObject({ done: 16 });
    } finally {
      lossy.destroy();
    }
  });

  it('a live claim is held: a second worker is told when the lease ends', async () => {
    const { runId, metatiles } = await seedLedgerRun(ledger, 1, 2);
    const m = metatiles[0]!;
    await ledger.claim(runId, m, 'a', 60_000);
    const second = await ledger.claim(runId, m, 'b', 60_000);
    expect(second.outcome).toBe('held');
    expect(second.outcome === 'held' && second.leaseUntil).toBeGreaterThan(Date.now() + 50_000);
  });

  it('releases count in sub-tiles: retried, interrupted, parked, cancelled, failed', async () => {
    const { runId, metatiles } = await seedLedgerRun(ledger, 5, 3);
    const error = { class: 'TileRetryableError', message: 'x' };
    const [a, b, c, d, e] = metatiles;
    const held = (m: (typeof metatiles)[number] | undefined) => claimAs(ledger, runId, m!, 'w');
    await (await held(a)).release({ state: 'QUEUED', error });
    await (await held(b)).release({ state: 'QUEUED', error, interrupted: true });
    await (await held(c)).release({ state: 'PARKED', error });
    await (await held(d)).release({ state: 'CANCELLED', error });
    await (await held(e)).markFailed({ class: 'TileDataError', message: 'bad' });
    const run = await ledger.getRun(runId);
    expect(run?.counters).toMatchObject({
      retried: 3,
      interrupted: 3,
      parked: 3,
      cancelled: 3,
      failed: 3,
      done: 0,
    });
    expect((await ledger.getMetatile(runId, b!.id))?.interruptions).toBe(1);
    await ledger.resetBreaker(runId);
    expect((await ledger.getRun(runId))?.counters.retried).toBe(0);
  });
});
