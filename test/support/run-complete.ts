import { expect } from 'vitest';
import type { Ledger } from '../../lib/ledger/ledger.js';
import { countClaims, listTiles } from '../../lib/ledger/tile-records.js';
import type { ObjectStore } from '../../lib/store/object-store.js';
import { verifyRun } from '../../lib/verify/verify-run.js';

/**
 * The state of the world after a run that must have finished whole: SUCCEEDED with exact
 * counters, no claim left, every sub-tile one DONE marker with its object, nothing unmarked.
 */
export async function expectRunComplete(ledger: Ledger, store: ObjectStore, runId: string): Promise<void> {
  const run = await ledger.getRun(runId);
  expect(run?.status).toBe('SUCCEEDED');
  const total = run!.counters.total;
  expect(run?.counters).toMatchObject({ done: total, parked: 0, cancelled: 0, failed: 0 });
  expect(await countClaims(ledger, runId)).toBe(0);
  const tiles = [];
  for await (const t of listTiles(ledger, runId)) tiles.push(t);
  expect(tiles).toHaveLength(total);
  expect(tiles.every((t) => t.state === 'DONE' && t.output !== undefined)).toBe(true);
  const verified = await verifyRun(ledger, store, runId);
  expect({
    gaps: verified.gaps,
    unmarked: verified.unmarked,
    markers: verified.markers,
    objects: verified.objects,
  }).toEqual({
    gaps: [],
    unmarked: [],
    markers: total,
    objects: total,
  });
}
