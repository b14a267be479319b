import type { Ledger } from '../ledger/ledger.js';
import type { Metatile } from '../model/metatile.js';
import type { TileOutput } from '../model/run.js';
import type { TileCoord } from '../tiling/tile-coord.js';

/** A child tile a lower-level tile is made from: where and which version its marker recorded. */
export interface ChildTile extends TileCoord {
  readonly output: TileOutput;
}

export type ChildrenReading =
  /** Every child is marked (done, or failed for good): the tiles made, under this metatile's tiles. */
  | { readonly ready: true; readonly tiles: readonly ChildTile[] }
  /** Some child is still to be made (or re-driven): its last sibling will send this metatile again. */
  | { readonly ready: false; readonly pending: number };

/**
 * A lower-level metatile's children, from their markers (one batched consistent read): ready
 * when all are DONE or FAILED, with the done tiles whose parent is one of this metatile's tiles
 * (a failed child leaves its quarter empty, as a tile gdal2tiles could not read would).
 */
export async function readChildren(
  ledger: Pick<Ledger, 'getMetatiles'>,
  runId: string,
  metatile: Pick<Metatile, 'tiles' | 'children'>,
): Promise<ChildrenReading> {
  const ids = metatile.children ?? [];
  const records = await ledger.getMetatiles(runId, ids);
  const pending = ids.filter((id) => {
    const state = records.get(id)?.state;
    return state !== 'DONE' && state !== 'FAILED';
  }).length;
  if (pending > 0) return { ready: false, pending };
  const parents = new Set(metatile.tiles.map((t) => `${t.x}/${t.y}`));
  const tiles: ChildTile[] = [];
  for (const record of records.values()) {
    if (record.state !== 'DONE') continue;
    for (const tile of record.tiles) {
      const output = record.outputs?.[tile.id];
      if (output && parents.has(`${Math.floor(tile.x / 2)}/${Math.floor(tile.y / 2)}`))
        tiles.push({ z: tile.z, x: tile.x, y: tile.y, output });
    }
  }
  return { ready: true, tiles };
}
