import { manifestIndexKey, manifestRefSchema } from '../../lib/manifest/manifest-ref.js';
import { readManifestChunk } from '../../lib/manifest/read-manifest-chunk.js';
import type { TileTask } from '../../lib/model/tile.js';
import type { ObjectStore } from '../../lib/store/object-store.js';

/** Every sub-tile a run's manifest lists: what the ledger must account for, exactly once. */
export async function manifestTiles(store: ObjectStore, runId: string): Promise<TileTask[]> {
  const ref = manifestRefSchema.parse(JSON.parse(await store.getText(manifestIndexKey(runId))));
  const tiles: TileTask[] = [];
  for (const part of ref.parts) {
    let offset = 0;
    while (offset < part.bytes) {
      const chunk = await readManifestChunk(store, part, offset, 10_000);
      tiles.push(...chunk.tiles);
      offset = chunk.nextOffset;
    }
  }
  return tiles;
}
