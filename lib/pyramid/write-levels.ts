import { type ManifestLevels, manifestLevelsPartKey } from '../manifest/manifest-ref.js';
import { PartWriter } from '../manifest/part-writer.js';
import { type Metatile, type ParentRef, withLinks } from '../model/metatile.js';
import { METATILE_SIDE } from '../operations/metatile-layout.js';
import type { ObjectStore } from '../store/object-store.js';
import type { TileCoord } from '../tiling/tile-coord.js';
import { PyramidPlanError } from './errors.js';
import { blockAt, blockKey, type LevelCover, levelBlocks, parentBlockOf } from './level-blocks.js';
import { blockMetatiles, levelCovers, type PyramidPlan } from './pyramid-plan.js';

export interface WrittenLevels {
  readonly levels: ManifestLevels;
  /** The base metatile with its link to its parent's lines; throws for one no parent expects. */
  linkBase(metatile: Metatile): Metatile;
  /** Throws unless every base metatile a parent waits for was linked. */
  checkBaseComplete(): void;
}

export interface WriteLevelsOptions {
  readonly runId: string;
  readonly tileId: (tile: TileCoord) => string;
  readonly partLines: number;
  readonly signal?: AbortSignal;
}

/** The metatile ids of a block's four children one level up: what its metatiles wait for. */
function childIds(
  cover: LevelCover,
  z: number,
  bx: number,
  by: number,
  options: WriteLevelsOptions,
  tpm: number,
) {
  const ids: string[] = [];
  for (const cy of [2 * by, 2 * by + 1])
    for (const cx of [2 * bx, 2 * bx + 1])
      ids.push(...blockMetatiles(blockAt(cover, z + 1, cx, cy), options.tileId, tpm).map((m) => m.id));
  return ids;
}

/**
 * Writes a pyramid's lower levels to `manifest-levels-*.jsonl`, top level first, so that each
 * metatile can name where its parent's lines are (`up`) when it is written; each lower metatile
 * lists its children (`children`), the metatiles its tiles are made from
 * (docs/architecture.md#pyramids). Returns how to link the base level, written after it by
 * writeManifest, and the check that every child a parent waits for is in the base.
 */
export async function writeLevels(
  store: ObjectStore,
  plan: PyramidPlan,
  options: WriteLevelsOptions,
): Promise<WrittenLevels> {
  const covers = levelCovers(plan);
  const tpm = plan.tilesPerMessage;
  const writer = new PartWriter(
    store,
    (i) => manifestLevelsPartKey(options.runId, i),
    options.partLines,
    options.signal,
  );
  let above = new Map<string, ParentRef>();
  const expectedBase = new Set<string>();
  for (let z = plan.minZoom; z < plan.maxZoom; z++) {
    const cover = covers.get(z)!;
    const refs = new Map<string, ParentRef>();
    for (const block of levelBlocks(cover, z)) {
      const up = z > plan.minZoom ? parentRef(above, block.tiles[0]!) : undefined;
      const children = childIds(covers.get(z + 1)!, z, block.bx, block.by, options, tpm);
      if (z + 1 === plan.maxZoom) for (const id of children) expectedBase.add(id);
      const metatiles = blockMetatiles(block, options.tileId, tpm).map((m) =>
        withLinks(m, { ...(up ? { up } : {}), children }),
      );
      const place = await writer.add(
        metatiles.map((m) => JSON.stringify(m)),
        block.tiles.length,
      );
      refs.set(blockKey(block), { ...place, lines: metatiles.length });
    }
    above = refs;
  }
  const parts = await writer.finish();
  const baseParents = above;
  return {
    levels: { minZoom: plan.minZoom, maxZoom: plan.maxZoom, parts },
    linkBase(metatile) {
      if (!expectedBase.delete(metatile.id)) {
        throw new PyramidPlanError(
          `base metatile ${metatile.id} (${metatile.tiles.length} tiles from ${tileName(metatile.tiles[0]!)}) ` +
            'is not a child of any lower-level metatile',
        );
      }
      return withLinks(metatile, { up: parentRef(baseParents, metatile.tiles[0]!) });
    },
    checkBaseComplete() {
      if (expectedBase.size > 0) {
        throw new PyramidPlanError(
          `${expectedBase.size} metatiles the lower levels wait for are not in the base level (first: ${[...expectedBase][0]})`,
        );
      }
    },
  };
}

const tileName = (t: TileCoord) => `${t.z}/${t.x}/${t.y}`;

function parentRef(refs: ReadonlyMap<string, ParentRef>, tile: TileCoord): ParentRef {
  const ref = refs.get(blockKey(parentBlockOf(tile)));
  if (!ref) {
    throw new PyramidPlanError(
      `tile ${tileName(tile)} has no parent block in level ${tile.z - 1} (block side ${METATILE_SIDE})`,
    );
  }
  return ref;
}
