import { type Metatile, metatileOf } from '../model/metatile.js';
import { groupMetatiles } from '../split/group-metatiles.js';
import type { TileCoord } from '../tiling/tile-coord.js';
import { coverBelow, type LevelBlock, type LevelCover, levelBlocks } from './level-blocks.js';

/** A run's levels: the base (warped from the source) at `maxZoom`, each lower one from the level above. */
export interface PyramidPlan {
  readonly minZoom: number;
  readonly maxZoom: number;
  /** What the base level covers. */
  readonly base: LevelCover;
  readonly tilesPerMessage: number;
}

/** Every level's cover, by zoom: the base's, then each halved down to minZoom. */
export function levelCovers(plan: PyramidPlan): Map<number, LevelCover> {
  const covers = new Map<number, LevelCover>([[plan.maxZoom, plan.base]]);
  for (let z = plan.maxZoom; z > plan.minZoom; z--) covers.set(z - 1, coverBelow(covers.get(z)!));
  return covers;
}

/** Sub-tiles of each lower level (every level but the base), by zoom. */
export function lowerLevelTiles(plan: PyramidPlan): Map<number, number> {
  const covers = levelCovers(plan);
  const counts = new Map<number, number>();
  for (let z = plan.minZoom; z < plan.maxZoom; z++) {
    let n = 0;
    for (const block of levelBlocks(covers.get(z)!, z)) n += block.tiles.length;
    counts.set(z, n);
  }
  return counts;
}

/** A level's metatiles in blocks aligned on the grid, block after block: a pyramid's base. */
export function* alignedMetatiles(
  cover: LevelCover,
  z: number,
  tileId: (tile: TileCoord) => string,
  tilesPerMessage: number,
): Generator<Metatile> {
  for (const block of levelBlocks(cover, z)) yield* blockMetatiles(block, tileId, tilesPerMessage);
}

/** A block's metatiles, as the manifest lists them: the same grouping at every level. */
export function blockMetatiles(
  block: LevelBlock,
  tileId: (tile: TileCoord) => string,
  tilesPerMessage: number,
): Metatile[] {
  if (block.tiles.length === 0) return [];
  const tasks = block.tiles.map((t) => ({ id: tileId(t), z: t.z, x: t.x, y: t.y }));
  return [...groupMetatiles(tasks, tilesPerMessage)].map((m) => metatileOf(m.tiles));
}
