import type { TileRecord } from '../model/run.js';
import { tilesOf } from './items.js';
import type { Ledger } from './ledger.js';

/** Every sub-tile of a run as the ledger records it: the run's metatile Query, flattened. */
export async function* listTiles(
  ledger: Pick<Ledger, 'listMetatiles'>,
  runId: string,
  options?: { readonly parallel?: boolean },
): AsyncIterable<TileRecord> {
  for await (const record of ledger.listMetatiles(runId, options)) yield* tilesOf(record);
}

/** Metatiles of a run held by a claim right now (live or expired lease). */
export async function countClaims(ledger: Pick<Ledger, 'listMetatiles'>, runId: string): Promise<number> {
  let claimed = 0;
  for await (const record of ledger.listMetatiles(runId)) if (record.state === 'CLAIMED') claimed += 1;
  return claimed;
}
