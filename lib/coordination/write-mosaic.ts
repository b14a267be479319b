import type { ObjectStore } from '../store/object-store.js';
import { type MosaicBands, type TileRange, type VrtSource, vrtChunks } from './mosaic-vrt.js';
import { levelMosaicNames, RUN_OUTPUTS, tileHref } from './run-outputs.js';
import type { TileSet } from './tile-set.js';

export interface TileBlock {
  readonly bx: number;
  readonly by: number;
  readonly indices: Uint32Array;
}

/** Blocks written at once: each is one streamed upload of a few MiB at most. */
const PARALLEL_WRITES = 4;

/** The block's tiles' range, clipped to the run's: no block VRT reaches past the data. */
export function blockRange(tiles: TileSet, block: TileBlock, size: number): TileRange {
  return {
    z: tiles.z,
    x0: Math.max(block.bx * size, tiles.minX),
    y0: Math.max(block.by * size, tiles.minY),
    x1: Math.min(block.bx * size + size - 1, tiles.maxX),
    y1: Math.min(block.by * size + size - 1, tiles.maxY),
  };
}

/** Runs `work` on every item, at most `limit` at a time. */
export async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * The run's mosaic: one VRT per block of tiles, streamed, and a top-level VRT over the blocks
 * (docs/architecture.md, "Finalize and outputs"). Returns the top-level VRT's key. A pyramid's
 * lower level gets its own (`mosaic-<z>.vrt` over `mosaic-<z>/`): `level` names it.
 */
export async function writeMosaic(
  store: ObjectStore,
  prefix: string,
  runId: string,
  tiles: TileSet,
  blocks: readonly TileBlock[],
  size: number,
  bands: MosaicBands,
  level?: number,
  ext = 'tif',
): Promise<string> {
  const names = level === undefined ? RUN_OUTPUTS : levelMosaicNames(level);
  const blockHref = (b: TileBlock) => `${names.mosaicBlocks}${b.bx}-${b.by}.vrt`;
  await eachLimited(blocks, PARALLEL_WRITES, async (block) => {
    const range = blockRange(tiles, block, size);
    const sources = function* (): Generator<VrtSource> {
      for (const i of block.indices) {
        const x = tiles.x(i);
        const y = tiles.y(i);
        const href = tileHref(runId, 1, { z: tiles.z, x, y }, ext);
        yield { href, col: x - range.x0, row: y - range.y0, cols: 1, rows: 1 };
      }
    };
    await store.putStream(`${prefix}${blockHref(block)}`, vrtChunks(range, bands, sources), {
      contentType: 'application/xml',
    });
  });
  const all: TileRange = { z: tiles.z, x0: tiles.minX, y0: tiles.minY, x1: tiles.maxX, y1: tiles.maxY };
  const top = function* (): Generator<VrtSource> {
    for (const block of blocks) {
      const r = blockRange(tiles, block, size);
      yield {
        href: blockHref(block),
        col: r.x0 - all.x0,
        row: r.y0 - all.y0,
        cols: r.x1 - r.x0 + 1,
        rows: r.y1 - r.y0 + 1,
      };
    }
  };
  const key = `${prefix}${names.mosaic}`;
  await store.putStream(key, vrtChunks(all, bands, top), { contentType: 'application/xml' });
  return key;
}
