import { enqueuedTiles } from '../../../lib/manifest/manifest-ref.js';
import { manifestChunks, readManifestRef } from '../../../lib/manifest/walk-manifest.js';
import type { TileTask } from '../../../lib/model/tile.js';
import type { ObjectStore } from '../../../lib/store/object-store.js';

/** Metatile lines per ranged GET while collecting the shown tiles (~1 KB a line: ≤ 320 KB). */
const CHUNK_LINES = 300;
/** Lines per ranged GET past the shown tiles, where only the extent is kept (≤ 1.3 MB). */
const SCAN_LINES = 1_250;

/** The XYZ range every sub-tile of the run lies in (one zoom per run). */
export interface TileExtent {
  readonly z: number;
  readonly minX: number;
  readonly maxX: number;
  readonly minY: number;
  readonly maxY: number;
}

export interface ManifestTiles {
  /** Sub-tiles of the level on the map: all of a run's, or a pyramid's base level. */
  readonly total: number;
  /** The first `cap` of them, in manifest order (a stable order the page relies on). */
  readonly tiles: readonly TileTask[];
  /** The range of all of them, shown or not: the run's outline. Undefined for an empty run. */
  readonly extent?: TileExtent;
  /** The metatiles (claim items) of the shown tiles, as the manifest lists them. */
  readonly metatileIds: readonly string[];
  /** A pyramid's levels: the shown tiles are its base (`maxZoom`), made down to `minZoom`. */
  readonly levels?: { readonly minZoom: number; readonly maxZoom: number; readonly total: number };
}

function grow(extent: TileExtent | undefined, t: TileTask): TileExtent {
  if (!extent) return { z: t.z, minX: t.x, maxX: t.x, minY: t.y, maxY: t.y };
  return {
    z: extent.z,
    minX: Math.min(extent.minX, t.x),
    maxX: Math.max(extent.maxX, t.x),
    minY: Math.min(extent.minY, t.y),
    maxY: Math.max(extent.maxY, t.y),
  };
}

/**
 * The first `cap` sub-tiles of a run's manifest and the extent of all of them, or undefined
 * while there is no manifest yet (the run is still splitting, or failed before its split).
 * Reads by ranged GETs, so a million-tile run costs no more memory than `cap` tiles.
 */
export async function readManifestTiles(
  store: ObjectStore,
  runId: string,
  cap: number,
): Promise<ManifestTiles | undefined> {
  const ref = await readManifestRef(store, runId);
  if (!ref) return undefined;
  const tiles: TileTask[] = [];
  const metatileIds: string[] = [];
  let extent: TileExtent | undefined;
  const linesPerRead = (read: number) => (read < cap ? CHUNK_LINES : SCAN_LINES);
  for await (const chunk of manifestChunks(store, ref, linesPerRead)) {
    for (const metatile of chunk) {
      if (tiles.length < cap) metatileIds.push(metatile.id);
      for (const t of metatile.tiles) {
        extent = grow(extent, t);
        if (tiles.length < cap) tiles.push(t);
      }
    }
  }
  const levels = ref.levels
    ? { minZoom: ref.levels.minZoom, maxZoom: ref.levels.maxZoom, total: ref.total }
    : undefined;
  return { total: enqueuedTiles(ref), tiles, extent, metatileIds, ...(levels ? { levels } : {}) };
}
