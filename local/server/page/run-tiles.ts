import type { Ledger } from '../../../lib/ledger/ledger.js';
import type { TileState } from '../../../lib/model/run.js';
import type { TileTask } from '../../../lib/model/tile.js';
import type { ObjectStore } from '../../../lib/store/object-store.js';
import { type ManifestTiles, readManifestTiles } from './read-manifest-tiles.js';

/** Most sub-tiles the page draws: beyond this a browser map becomes unusable, so the rest is noted. */
export const MAP_TILE_CAP = 20_000;
/** Manifests kept in memory (they never change once written): the runs an operator looks at. */
const CACHED_MANIFESTS = 8;
/**
 * Metatile records read by the run's Query before giving up on it for batched reads of the shown
 * tiles' metatiles: a Query is far cheaper per record, but a million-tile run has 62,500 records.
 */
const QUERY_BUDGET = MAP_TILE_CAP / 4;
/** Batched reads in flight at once (each of up to 100 keys per call, in the ledger). */
const PARALLEL_READS = 4;

export interface RunTiles extends ManifestTiles {
  readonly runId: string;
  /** The ledger state of each of `tiles`, aligned by index; QUEUED where there is no record yet. */
  readonly states: readonly TileState[];
  readonly truncated: boolean;
  /** Why the list is empty or short, for the page to show as is. */
  readonly note?: string;
}

export interface RunTilesReader {
  read(runId: string): Promise<RunTiles>;
}

/**
 * The ledger states of these sub-tiles. Only touched metatiles have a record, so the run's Query
 * is tried first (cheap while a run is young or small); past QUERY_BUDGET records it is dropped
 * for batched reads of the metatiles of exactly these tiles (as the manifest lists them).
 * Either way the cost is bounded by the cap, not the run.
 */
async function statesOf(
  ledger: Ledger,
  runId: string,
  tiles: readonly TileTask[],
  metatileIds: readonly string[],
  budget: number,
): Promise<Map<string, TileState>> {
  const wanted = new Set(tiles.map((t) => t.id));
  const states = new Map<string, TileState>();
  let read = 0;
  for await (const record of ledger.listMetatiles(runId)) {
    for (const tile of record.tiles) if (wanted.has(tile.id)) states.set(tile.id, record.state);
    read += 1;
    if (read > budget) break;
  }
  if (read <= budget) return states;
  states.clear();
  const ids = metatileIds;
  const slice = Math.ceil(ids.length / PARALLEL_READS);
  const parts = await Promise.all(
    Array.from({ length: PARALLEL_READS }, (_, i) =>
      ledger.getMetatiles(runId, ids.slice(i * slice, (i + 1) * slice)),
    ),
  );
  for (const part of parts)
    for (const record of part.values()) for (const tile of record.tiles) states.set(tile.id, record.state);
  return states;
}

/**
 * Merges a run's manifest (every sub-tile, including those the ledger has no record of yet) with
 * the ledger's tile states, bounded to `cap` sub-tiles.
 */
export function createRunTilesReader(
  store: ObjectStore,
  ledger: Ledger,
  cap = MAP_TILE_CAP,
  queryBudget = QUERY_BUDGET,
): RunTilesReader {
  const manifests = new Map<string, ManifestTiles>();

  const manifestOf = async (runId: string) => {
    const cached = manifests.get(runId);
    if (cached) {
      // Refresh its place: the map is kept in least-recently-used order.
      manifests.delete(runId);
      manifests.set(runId, cached);
      return cached;
    }
    const read = await readManifestTiles(store, runId, cap);
    if (!read) return undefined;
    manifests.set(runId, read);
    if (manifests.size > CACHED_MANIFESTS) manifests.delete(manifests.keys().next().value!);
    return read;
  };

  return {
    async read(runId) {
      const manifest = await manifestOf(runId);
      if (!manifest) {
        return {
          runId,
          total: 0,
          tiles: [],
          states: [],
          truncated: false,
          metatileIds: [],
          note: 'no manifest yet: the run has not been split',
        };
      }
      const truncated = manifest.total > manifest.tiles.length;
      const states = await statesOf(ledger, runId, manifest.tiles, manifest.metatileIds, queryBudget);
      return {
        runId,
        ...manifest,
        states: manifest.tiles.map((t) => states.get(t.id) ?? 'QUEUED'),
        truncated,
        note: truncated
          ? `showing the first ${manifest.tiles.length.toLocaleString('en')} of ${manifest.total.toLocaleString('en')} sub-tiles`
          : undefined,
      };
    },
  };
}
