import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createDynamoLedger } from '../../../lib/ledger/dynamodb-ledger.js';
import { LeaseLostError } from '../../../lib/ledger/errors.js';
import { tileIdFor } from '../../../lib/model/ids.js';
import { stackClients } from '../../support/stack-clients.js';

const { config, clients } = stackClients();
afterAll(() => clients.destroy());

async function newRun(total: number) {
  const ledger = createDynamoLedger(clients.documents, config.table);
  const runId = `r-conc-${randomUUID().slice(0, 8)}`;
  await ledger.createRun({
    runId,
    status: 'RUNNING',
    source: { bucket: config.bucket, key: 'incoming/x.tif', version: '1' },
    operation: 'raster-xyz',
    params: {},
    paramsVersion: 'v1',
    total,
  });
  const tiles = Array.from({ length: total }, (_, i) => {
    const t = { z: 10, x: i, y: 7 };
    return { id: tileIdFor(runId, 'raster-xyz', 'v1', t), ...t };
  });
  return { ledger, runId, tiles };
}

describe('the ledger under concurrency', () => {
  it('keeps counters exact when many workers race for the same sub-tiles', async () => {
    const { ledger, runId, tiles } = await newRun(24);
    // Four "workers" each try every sub-tile: exactly one claim per tile may win.
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, w) =>
        Promise.all(
          tiles.map(async (tile) => {
            const claim = await ledger.claimTile(runId, tile, `w${w}`, 60_000);
            if (claim.outcome !== 'claimed') return 0;
            await ledger.markDone(runId, tile.id, `w${w}`, { key: `k/${tile.id}`, etag: 'e', bytes: 1 }, 1);
            return 1;
          }),
        ),
      ),
    );
    const wins = results.flat().reduce((a: number, b) => a + b, 0);
    expect(wins).toBe(24);
    const run = await ledger.getRun(runId);
    expect(run?.counters.done).toBe(24);
  });

  it('a lease that expired and was taken over cannot be marked by its old owner', async () => {
    const { ledger, runId, tiles } = await newRun(1);
    const [tile] = tiles;
    expect((await ledger.claimTile(runId, tile!, 'old', 1)).outcome).toBe('claimed');
    await new Promise((r) => setTimeout(r, 20));
    expect((await ledger.claimTile(runId, tile!, 'new', 60_000)).outcome).toBe('claimed');
    await expect(
      ledger.markDone(runId, tile!.id, 'old', { key: 'k', etag: 'e', bytes: 1 }, 1),
    ).rejects.toBeInstanceOf(LeaseLostError);
    await expect(ledger.extendLease(runId, tile!.id, 'old', 1_000)).rejects.toBeInstanceOf(LeaseLostError);
    await ledger.markDone(runId, tile!.id, 'new', { key: 'k', etag: 'e', bytes: 1 }, 1);
    expect((await ledger.getRun(runId))?.counters.done).toBe(1);
  });

  it('the reaper frees only expired leases', async () => {
    const { ledger, runId, tiles } = await newRun(2);
    await ledger.claimTile(runId, tiles[0]!, 'gone', 1);
    await ledger.claimTile(runId, tiles[1]!, 'alive', 60_000);
    await new Promise((r) => setTimeout(r, 20));
    expect(await ledger.reapExpiredLeases(runId, Date.now())).toBe(1);
    const states = await ledger.getTiles(
      runId,
      tiles.map((t) => t.id),
    );
    expect(states.get(tiles[0]!.id)?.state).toBe('QUEUED');
    expect(states.get(tiles[0]!.id)?.owner).toBeUndefined();
    expect(states.get(tiles[1]!.id)?.state).toBe('CLAIMED');
  });
});
