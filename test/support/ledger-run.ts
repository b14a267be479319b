import { randomUUID } from 'node:crypto';
import type { ClaimHandle, Ledger } from '../../lib/ledger/ledger.js';
import { tileIdFor, tileOutputKey } from '../../lib/model/ids.js';
import { type Metatile, metatileOf } from '../../lib/model/metatile.js';
import type { TileOutput } from '../../lib/model/run.js';

/**
 * A RUNNING run of `metatiles` blocks of `perMetatile` sub-tiles each, recorded in `ledger`:
 * the run the ledger's tests claim, mark and park.
 */
export async function seedLedgerRun(ledger: Ledger, metatiles: number, perMetatile = 16) {
  const runId = `r-ledger-${randomUUID().slice(0, 8)}`;
  await ledger.createRun({
    runId,
    status: 'RUNNING',
    source: { bucket: 'geohub-test', key: 'incoming/x.tif', version: '1' },
    operation: 'raster-xyz',
    params: {},
    paramsVersion: 'v1',
    total: metatiles * perMetatile,
  });
  const blocks: Metatile[] = Array.from({ length: metatiles }, (_, b) =>
    metatileOf(
      Array.from({ length: perMetatile }, (_, i) => {
        const t = { z: 12, x: b * 4 + (i % 4), y: Math.floor(i / 4) };
        return { id: tileIdFor(runId, 'raster-xyz', 'v1', t), ...t };
      }),
    ),
  );
  return { runId, metatiles: blocks };
}

/** Outputs as a worker reports them once every tile of the metatile is durable. */
export function outputsOf(runId: string, metatile: Metatile): Map<string, TileOutput> {
  return new Map(
    metatile.tiles.map((t) => [t.id, { key: tileOutputKey(runId, t), etag: `e-${t.id}`, bytes: 100 }]),
  );
}

/** Claims the metatile as `owner` — it must be free — and returns the claim's handle. */
export async function claimAs(
  ledger: Ledger,
  runId: string,
  metatile: Metatile,
  owner: string,
  leaseMs = 60_000,
): Promise<ClaimHandle> {
  const result = await ledger.claim(runId, metatile, owner, leaseMs);
  if (result.outcome !== 'claimed')
    throw new Error(`${owner} could not claim ${metatile.id}: ${result.outcome}`);
  return result.claim;
}
