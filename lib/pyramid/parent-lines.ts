import { manifestLevelsPartKey } from '../manifest/manifest-ref.js';
import { readManifestChunk } from '../manifest/read-manifest-chunk.js';
import type { Metatile, ParentRef } from '../model/metatile.js';
import type { ObjectStore } from '../store/object-store.js';

/** The parent block's metatiles a child's `up` points at: a ranged GET of its lines. */
export async function readParentLines(
  store: ObjectStore,
  runId: string,
  up: ParentRef,
  signal?: AbortSignal,
): Promise<Metatile[]> {
  const part = { key: manifestLevelsPartKey(runId, up.part), tiles: 0, bytes: up.offset + up.bytes };
  const lines: Metatile[] = [];
  let offset = up.offset;
  // A line that lists 64 children is longer than a plain one: a read may bring fewer than asked.
  while (lines.length < up.lines && offset < part.bytes) {
    const chunk = await readManifestChunk(store, part, offset, up.lines - lines.length, signal);
    lines.push(...chunk.metatiles);
    offset = chunk.nextOffset;
  }
  return lines;
}
