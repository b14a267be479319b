import { describe, expect, it } from 'vitest';
import { allManifestMetatiles } from '../../../../../lib/manifest/walk-manifest.js';
import { writeManifest } from '../../../../../lib/manifest/write-manifest.js';
import { tileIdFor } from '../../../../../lib/model/ids.js';
import { MAX_TILES_PER_MESSAGE } from '../../../../../lib/model/metatile.js';
import { coverMetatiles } from '../../../../../lib/split/group-metatiles.js';
import { createRunTilesReader } from '../../../../../local/server/page/run-tiles.js';
import { claimAs, outputsOf } from '../../../../support/ledger-run.js';
import { createMemoryLedger } from '../../../../support/memory-ledger.js';
import { createMemoryStore } from '../../../../support/memory-store.js';

/** A run of 40 sub-tiles: its first metatile done, its second claimed, its third never touched. */
async function runOf40() {
  const store = createMemoryStore();
  const ledger = createMemoryLedger();
  const runId = 'r-page-tiles';
  // Listed as split lists them, in 4×4 blocks: 16 + 16 + 4 + 4.
  const range = { z: 9, minX: 100, maxX: 107, minY: 200, maxY: 204 };
  const tileId = (t: { z: number; x: number; y: number }) => tileIdFor(runId, 'raster-xyz', 'v1', t);
  await writeManifest(store, coverMetatiles([range], tileId, MAX_TILES_PER_MESSAGE), { runId });
  await ledger.createRun({
    runId,
    status: 'RUNNING',
    source: { bucket: store.bucket, key: 'incoming/x.tif', version: '1' },
    operation: 'raster-xyz',
    params: {},
    paramsVersion: 'v1',
    total: 40,
  });
  const [first, second] = await allManifestMetatiles(store, runId);
  await (await claimAs(ledger, runId, first!, 'w', 60_000)).markDone(outputsOf(runId, first!), 1);
  await ledger.claim(runId, second!, 'w', 60_000);
  return { store, ledger, runId };
}

const expected = [...Array(16).fill('DONE'), ...Array(16).fill('CLAIMED'), ...Array(8).fill('QUEUED')];

describe('the page’s tile states: the manifest joined with the metatile records', () => {
  it('from the run’s Query while it is small', async () => {
    const { store, ledger, runId } = await runOf40();
    const view = await createRunTilesReader(store, ledger, 100).read(runId);
    expect(view.states).toEqual(expected);
    expect(view.truncated).toBe(false);
  });

  it('from batched reads of the shown tiles’ metatiles once the Query is over its budget', async () => {
    const { store, ledger, runId } = await runOf40();
    const view = await createRunTilesReader(store, ledger, 100, 1).read(runId);
    expect(view.states).toEqual(expected);
  });
});
