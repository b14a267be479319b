import { METATILE_SIDE } from '../operations/metatile-layout.js';
import type { TileCoord } from '../tiling/tile-coord.js';
import type { TileRange } from '../tiling/tile-range.js';

/**
 * What a pyramid level covers: a set of tile ranges per source (one for a file, one per member
 * of a collection, two where a source crosses the antimeridian). A tile exists where any holds it.
 */
export type LevelCover = readonly (readonly TileRange[])[];

/** A block of a level: METATILE_SIDE² tiles aligned on the grid (x div 4, y div 4), and its tiles. */
export interface LevelBlock {
  readonly z: number;
  readonly bx: number;
  readonly by: number;
  /** Row by row, as the manifest lists them. */
  readonly tiles: readonly TileCoord[];
}

const holds = (r: TileRange, x: number, y: number) =>
  x >= r.minX && x <= r.maxX && y >= r.minY && y <= r.maxY;

/**
 * The cover one level down: each range halved. A parent exists exactly where one of its four
 * children does, so no lower tile waits for a child that is not made, and none is missed
 * (docs/architecture.md#pyramids). Computing each level from the footprint instead would differ
 * at an edge by the tile-edge tolerance, which is relative to the level.
 */
export function coverBelow(cover: LevelCover): LevelCover {
  return cover.map((ranges) =>
    ranges.map((r) => ({
      z: r.z - 1,
      minX: Math.floor(r.minX / 2),
      minY: Math.floor(r.minY / 2),
      maxX: Math.floor(r.maxX / 2),
      maxY: Math.floor(r.maxY / 2),
    })),
  );
}

/** The level's blocks, row by row, each with the tiles of it the cover holds. */
export function* levelBlocks(cover: LevelCover, z: number): Generator<LevelBlock> {
  const keys = new Set<number>();
  const across = Math.ceil(2 ** z / METATILE_SIDE) + 1;
  for (const ranges of cover)
    for (const r of ranges)
      for (let by = Math.floor(r.minY / METATILE_SIDE); by <= Math.floor(r.maxY / METATILE_SIDE); by++)
        for (let bx = Math.floor(r.minX / METATILE_SIDE); bx <= Math.floor(r.maxX / METATILE_SIDE); bx++)
          keys.add(by * across + bx);
  for (const key of [...keys].sort((a, b) => a - b))
    yield blockAt(cover, z, key % across, Math.floor(key / across));
}

/** One block of a level and the tiles of it the cover holds (none: the block is not in the level). */
export function blockAt(cover: LevelCover, z: number, bx: number, by: number): LevelBlock {
  const tiles: TileCoord[] = [];
  const n = 2 ** z;
  for (let y = by * METATILE_SIDE; y < Math.min(n, (by + 1) * METATILE_SIDE); y++)
    for (let x = bx * METATILE_SIDE; x < Math.min(n, (bx + 1) * METATILE_SIDE); x++)
      if (cover.some((ranges) => ranges.some((r) => holds(r, x, y)))) tiles.push({ z, x, y });
  return { z, bx, by, tiles };
}

/** The block of the level below this block's tiles go into: each parent block has four children. */
export function parentBlockOf(tile: TileCoord): { z: number; bx: number; by: number } {
  return {
    z: tile.z - 1,
    bx: Math.floor(tile.x / (2 * METATILE_SIDE)),
    by: Math.floor(tile.y / (2 * METATILE_SIDE)),
  };
}

/** A block's key in a level: what the manifest writer finds a parent's lines by. */
export const blockKey = (b: { z: number; bx: number; by: number }) => `${b.z}/${b.bx}/${b.by}`;
