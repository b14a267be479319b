import { MAX_MEMBERS_PER_METATILE, type Metatile, metatileOf } from '../model/metatile.js';
import type { TileTask } from '../model/tile.js';
import { METATILE_SIDE } from '../operations/metatile-layout.js';
import type { LevelCover } from '../pyramid/level-blocks.js';
import type { SourceHeader } from '../source/source-header.js';
import { TooManyTilesError } from '../split/errors.js';
import { groupMetatiles } from '../split/group-metatiles.js';
import type { TilePlan } from '../split/plan-tiles.js';
import { type Bbox, unionBbox } from '../tiling/bbox.js';
import type { TileCoord } from '../tiling/tile-coord.js';
import { type TileRange, tileCount } from '../tiling/tile-range.js';
import { tileRanges } from '../tiling/tile-ranges.js';

/** One readable member as planned alone: its header and its own plan (footprint, native zoom). */
export interface PlannedMember {
  readonly header: SourceHeader;
  readonly plan: TilePlan;
}

export interface CollectionPlan {
  readonly zoom: number;
  /** The finest member's native zoom: a collection is tiled at its most detailed member's level. */
  readonly nativeZoom: number;
  /** The union of the members' footprints (x past ±20037508 m where one crosses the antimeridian). */
  readonly bbox3857: Bbox;
  readonly total: number;
  /** Each member's tile ranges at the zoom: where a tile is made (a pyramid's base cover). */
  readonly cover: LevelCover;
  /** Metatile blocks the plan holds (the manifest's lines are these, or parts of them). */
  readonly blocks: number;
  /** The tiles' metatiles, each naming the members (indexes) under it; lazily, block by block. */
  metatiles(tileId: (tile: TileCoord) => string, tilesPerMessage: number): Generator<Metatile>;
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** Whether a range holds the tile; `pad` widens it by that many tiles on every side. */
const holds = (r: TileRange, x: number, y: number, pad = 0) =>
  x >= r.minX - pad && x <= r.maxX + pad && y >= r.minY - pad && y <= r.maxY + pad;

/**
 * Plans a collection as one source: its sub-tiles are every tile at least one member covers (a
 * tile no member touches is not made), at the requested zoom or the finest native one, and each
 * metatile records the members under its tiles — the index a worker reads instead of scanning the
 * collection. Point clouds add the members within `pad` tiles (the gridding's neighbourhood: a
 * DTM cell at a file's edge interpolates from the points beyond it). Pure: `geohub plan` and the
 * split agree by construction. Memory is per 4×4 block, not per tile.
 */
export function planCollection(
  members: readonly PlannedMember[],
  requestedZoom: number | undefined,
  where: string,
  maxTiles: number,
): CollectionPlan {
  const nativeZoom = Math.max(...members.map((m) => m.plan.nativeZoom));
  const zoom = requestedZoom ?? nativeZoom;
  const pad = members[0]?.header.kind === 'pointcloud' ? 1 : 0;
  const ranges = members.map((m) => tileRanges(m.plan.bbox3857, zoom));
  // The members under each block, by block key; blocks are aligned on the grid (x div 4, y div 4).
  const blocks = new Map<string, { bx: number; by: number; members: number[] }>();
  ranges.forEach((own, index) => {
    for (const r of own) {
      for (
        let by = Math.floor((r.minY - pad) / METATILE_SIDE);
        by <= Math.floor((r.maxY + pad) / METATILE_SIDE);
        by++
      )
        for (
          let bx = Math.floor((r.minX - pad) / METATILE_SIDE);
          bx <= Math.floor((r.maxX + pad) / METATILE_SIDE);
          bx++
        ) {
          if (bx < 0 || by < 0) continue;
          const key = `${bx}/${by}`;
          const block = blocks.get(key) ?? { bx, by, members: [] };
          if (block.members.at(-1) !== index) block.members.push(index);
          blocks.set(key, block);
        }
    }
  });
  const n = 2 ** zoom;
  const order = [...blocks.values()].sort((a, b) => a.by - b.by || a.bx - b.bx);
  const tilesOf = (block: { bx: number; by: number; members: number[] }) => {
    const tiles: TileCoord[] = [];
    for (let y = block.by * METATILE_SIDE; y < Math.min(n, (block.by + 1) * METATILE_SIDE); y++)
      for (let x = block.bx * METATILE_SIDE; x < Math.min(n, (block.bx + 1) * METATILE_SIDE); x++)
        if (block.members.some((i) => ranges[i]!.some((r) => holds(r, x, y)))) tiles.push({ z: zoom, x, y });
    return tiles;
  };
  // The total, counted before any manifest is written: a plan over the cap is refused whole.
  // Blocks reached only through the pad hold no tile and are dropped.
  let total = 0;
  const filled: typeof order = [];
  for (const block of order) {
    const count = tilesOf(block).length;
    if (count === 0) continue;
    filled.push(block);
    total += count;
    if (total > maxTiles) {
      const whole = members.flatMap((_, i) => ranges[i]!).reduce((s, r) => s + tileCount(r), 0);
      throw new TooManyTilesError(
        `${where} at zoom ${zoom} needs more than ${fmt(maxTiles)} sub-tiles (its members cover up to ${fmt(whole)}); ` +
          `choose a lower zoom (its native zoom is ${nativeZoom}) in the .job.json sidecar`,
      );
    }
  }
  return {
    zoom,
    nativeZoom,
    bbox3857: unionBbox(members.map((m) => m.plan.bbox3857)),
    total,
    cover: ranges,
    blocks: filled.length,
    *metatiles(tileId, tilesPerMessage) {
      for (const block of filled) {
        const tasks: TileTask[] = tilesOf(block).map((t) => ({ id: tileId(t), ...t }));
        for (const group of groupMetatiles(tasks, tilesPerMessage)) {
          const under = block.members.filter((i) =>
            group.tiles.some((t) => ranges[i]!.some((r) => holds(r, t.x, t.y, pad))),
          );
          if (under.length > MAX_MEMBERS_PER_METATILE) {
            throw new TooManyTilesError(
              `${where}: a sub-tile at zoom ${zoom} lies over ${fmt(under.length)} members, more than ` +
                `${fmt(MAX_MEMBERS_PER_METATILE)}; choose a higher zoom`,
            );
          }
          yield metatileOf(group.tiles, under);
        }
      }
    },
  };
}
