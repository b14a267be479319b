import type { Metatile } from '../model/metatile.js';
import type { TileTask } from '../model/tile.js';
import type { ObjectStore } from '../store/object-store.js';
import { ManifestMissingError } from './errors.js';
import { type ManifestRef, manifestIndexKey, manifestRefSchema } from './manifest-ref.js';
import { readManifestChunk } from './read-manifest-chunk.js';

/**
 * A run's manifest index, or undefined while there is none: the index is written after every
 * part, so its presence means the manifest is complete (the run is split).
 */
export async function readManifestRef(store: ObjectStore, runId: string): Promise<ManifestRef | undefined> {
  const key = manifestIndexKey(runId);
  if (!(await store.head(key))) return undefined;
  return manifestRefSchema.parse(JSON.parse(await store.getText(key)));
}

/**
 * The manifest's metatiles in order, a ranged GET at a time: `linesPerRead(tilesSoFar)` sizes
 * each read, so a reader holds no more than it asks for, whatever the run's size. The enqueued
 * parts (a pyramid's base level) unless `parts` says which.
 */
export async function* manifestChunks(
  store: ObjectStore,
  ref: ManifestRef,
  linesPerRead: (tilesSoFar: number) => number,
  parts: ManifestRef['parts'] = ref.parts,
): AsyncIterable<readonly Metatile[]> {
  let read = 0;
  for (const part of parts) {
    for (let offset = 0; offset < part.bytes; ) {
      const chunk = await readManifestChunk(store, part, offset, linesPerRead(read));
      for (const m of chunk.metatiles) read += m.tiles.length;
      offset = chunk.nextOffset;
      yield chunk.metatiles;
    }
  }
}

/** Every metatile a run's manifest lists, every level: what the ledger must account for, exactly once. */
export async function allManifestMetatiles(store: ObjectStore, runId: string): Promise<Metatile[]> {
  const ref = await readManifestRef(store, runId);
  if (!ref) throw new ManifestMissingError(`run ${runId} has no manifest (${manifestIndexKey(runId)})`);
  const metatiles: Metatile[] = [];
  const parts = [...ref.parts, ...(ref.levels?.parts ?? [])];
  for await (const chunk of manifestChunks(store, ref, () => 1_000, parts)) metatiles.push(...chunk);
  return metatiles;
}

/** Every sub-tile a run's manifest lists, in order. */
export async function allManifestTiles(store: ObjectStore, runId: string): Promise<TileTask[]> {
  return (await allManifestMetatiles(store, runId)).flatMap((m) => m.tiles);
}
