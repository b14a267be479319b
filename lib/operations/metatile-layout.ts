import type { TileTask } from '../model/tile.js';
import { type Bounds, tileBounds } from '../tiling/tile-bounds.js';
import { InvalidOperationParamsError } from './errors.js';

/** Tiles per side of a metatile: the manifest's 4×4 blocks (docs/architecture.md#metatiles). */
export const METATILE_SIDE = 4;

/** One warp: a rectangle of tiles of one zoom, and where each requested tile sits in it. */
export interface MetatileLayout {
  readonly z: number;
  readonly bounds: Bounds;
  readonly cols: number;
  readonly rows: number;
  readonly tiles: readonly { readonly tile: TileTask; readonly col: number; readonly row: number }[];
}

/**
 * Groups tiles into metatiles of at most `side` × `side` tiles each: tiles in the same
 * `side`-aligned cell (counted from the group's top-left tile) share one warp over their
 * bounding rectangle. A message's 4×4 block is one metatile; a scattered set (what is left of a
 * block once its marked tiles are skipped) never makes a warp larger than `side` × `side`.
 */
export function metatileLayouts(tiles: readonly TileTask[], side = METATILE_SIDE): MetatileLayout[] {
  if (tiles.length === 0) return [];
  const z = tiles[0]!.z;
  if (tiles.some((t) => t.z !== z)) {
    throw new InvalidOperationParamsError(
      `a metatile holds tiles of one zoom, not ${[...new Set(tiles.map((t) => t.z))]}`,
    );
  }
  const minX = Math.min(...tiles.map((t) => t.x));
  const minY = Math.min(...tiles.map((t) => t.y));
  const cells = new Map<string, TileTask[]>();
  for (const tile of tiles) {
    const cell = `${Math.floor((tile.x - minX) / side)}/${Math.floor((tile.y - minY) / side)}`;
    cells.set(cell, [...(cells.get(cell) ?? []), tile]);
  }
  return [...cells.values()].map((group) => {
    const x0 = Math.min(...group.map((t) => t.x));
    const y0 = Math.min(...group.map((t) => t.y));
    const x1 = Math.max(...group.map((t) => t.x));
    const y1 = Math.max(...group.map((t) => t.y));
    const nw = tileBounds(z, x0, y0);
    const se = tileBounds(z, x1, y1);
    return {
      z,
      bounds: { minX: nw.minX, maxY: nw.maxY, maxX: se.maxX, minY: se.minY },
      cols: x1 - x0 + 1,
      rows: y1 - y0 + 1,
      tiles: group.map((tile) => ({ tile, col: tile.x - x0, row: tile.y - y0 })),
    };
  });
}
