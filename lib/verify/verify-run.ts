import type { Ledger } from '../ledger/ledger.js';
import { listTiles } from '../ledger/tile-records.js';
import { tilesPrefix } from '../model/ids.js';
import type { ObjectStore } from '../store/object-store.js';

export interface VerifyReport {
  readonly runId: string;
  /** Sub-tiles marked DONE. */
  readonly markers: number;
  /** Tile objects found under the run's output prefix. */
  readonly objects: number;
  /** Markers whose object is missing or differs: visible gaps, never silently skipped. */
  readonly gaps: readonly { tileId: string; key: string; problem: 'missing' | 'etag-mismatch' }[];
  /** Objects without a marker: harmless (a crash between upload and marker), redone on retry. */
  readonly unmarked: readonly string[];
}

/** Compares the run's markers with the objects they claim exist: one Query and one listing. */
export async function verifyRun(ledger: Ledger, store: ObjectStore, runId: string): Promise<VerifyReport> {
  const objects = new Map<string, string>();
  for await (const o of store.list(tilesPrefix(runId))) objects.set(o.key, o.etag);
  let markers = 0;
  const gaps: VerifyReport['gaps'][number][] = [];
  const marked = new Set<string>();
  for await (const tile of listTiles(ledger, runId)) {
    if (tile.state !== 'DONE' || !tile.output) continue;
    markers += 1;
    marked.add(tile.output.key);
    const etag = objects.get(tile.output.key);
    if (etag === undefined) gaps.push({ tileId: tile.tileId, key: tile.output.key, problem: 'missing' });
    else if (etag !== tile.output.etag)
      gaps.push({ tileId: tile.tileId, key: tile.output.key, problem: 'etag-mismatch' });
  }
  const unmarked = [...objects.keys()].filter((key) => !marked.has(key));
  return { runId, markers, objects: objects.size, gaps, unmarked };
}
