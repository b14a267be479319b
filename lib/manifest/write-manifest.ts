import type { Metatile } from '../model/metatile.js';
import type { ObjectStore } from '../store/object-store.js';
import {
  MANIFEST_PART_LINES,
  type ManifestLevels,
  type ManifestRef,
  manifestIndexKey,
  manifestPartKey,
} from './manifest-ref.js';
import { PartWriter } from './part-writer.js';

export interface WriteManifestOptions {
  readonly runId: string;
  /** Metatile lines per part (default MANIFEST_PART_LINES). */
  readonly partLines?: number;
  /** Sub-tiles per work message, recorded on the reference (absent: the maximum). */
  readonly tilesPerMessage?: number;
  /** A pyramid's lower levels, already written (lib/pyramid/write-levels.ts). */
  readonly levels?: ManifestLevels;
  readonly signal?: AbortSignal;
}

/**
 * Writes the metatiles the enqueue sends as JSON Lines parts of at most `partLines` lines, one
 * metatile per line, then the ManifestRef as `manifest.json` (the last write: its presence means
 * the manifest is whole). Metatiles are consumed lazily, so a million tiles cost a few
 * megabytes, not a million-element string.
 */
export async function writeManifest(
  store: ObjectStore,
  metatiles: Iterable<Metatile>,
  options: WriteManifestOptions,
): Promise<ManifestRef> {
  const { runId, signal } = options;
  const partLines = Math.max(1, Math.floor(options.partLines ?? MANIFEST_PART_LINES));
  const writer = new PartWriter(store, (index) => manifestPartKey(runId, index), partLines, signal);
  for (const metatile of metatiles) await writer.add([JSON.stringify(metatile)], metatile.tiles.length);
  const parts = await writer.finish();
  const levels = options.levels;
  const ref: ManifestRef = {
    runId,
    total: [...parts, ...(levels?.parts ?? [])].reduce((n, p) => n + p.tiles, 0),
    parts,
    ...(levels ? { levels } : {}),
    ...(options.tilesPerMessage ? { tilesPerMessage: options.tilesPerMessage } : {}),
  };
  await store.putText(manifestIndexKey(runId), JSON.stringify(ref), {
    contentType: 'application/json',
    signal,
  });
  return ref;
}
