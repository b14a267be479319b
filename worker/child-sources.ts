import { mkdir } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { Metatile } from '../lib/model/metatile.js';
import type { RunHead } from '../lib/model/run.js';
import type { ChildTile } from '../lib/pyramid/child-tiles.js';
import { TileDataError } from './errors.js';
import type { ProcessTileDeps } from './process-tile.js';

/** Child tiles downloaded at once: 64 small objects at most per metatile, a quarter of them at a time. */
const PARALLEL_DOWNLOADS = 16;

/**
 * A lower-level metatile's source: its children's tiles, downloaded into the attempt's work
 * directory, each pinned to the ETag its marker recorded (a tile rewritten since is an error,
 * not other pixels). No child made (every one failed): a data error, the tiles are not made.
 */
export async function downloadChildren(
  deps: ProcessTileDeps,
  run: RunHead,
  metatile: Pick<Metatile, 'tiles' | 'children'>,
  work: string,
  signal: AbortSignal,
): Promise<{ readonly paths: readonly string[]; readonly tiles: readonly ChildTile[] }> {
  if (!deps.childTiles)
    throw new TileDataError(`run ${run.runId} is a pyramid; this worker makes no lower levels`);
  const children = await deps.childTiles(run, metatile);
  if (children.length === 0)
    throw new TileDataError(`no child of these ${metatile.tiles.length} tiles was made (every one failed)`);
  const dir = join(work, 'children');
  await mkdir(dir, { recursive: true });
  const paths = children.map((c) => join(dir, `${c.z}-${c.x}-${c.y}${extname(c.output.key)}`));
  let next = 0;
  const lane = async () => {
    while (next < children.length) {
      const i = next++;
      const child = children[i]!;
      await deps.store.download(child.output.key, paths[i]!, { signal, pin: { etag: child.output.etag } });
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_DOWNLOADS, children.length) }, lane));
  return { paths, tiles: children };
}
