import { planCollection } from '../../lib/collection/plan-collection.js';
import { readMembers } from '../../lib/collection/read-members.js';
import { chooseEngine } from '../../lib/operations/pointcloud-engine.js';
import type { LevelCover } from '../../lib/pyramid/level-blocks.js';
import { DEFAULT_MAX_TILES } from '../../lib/split/plan-tiles.js';
import { localFilesStore } from '../../lib/store/file-store.js';
import type { InputFile } from './input-file.js';

export interface LocalCollectionPlan {
  readonly kind: 'raster' | 'pointcloud';
  readonly members: number;
  readonly unreadable: readonly { readonly key: string; readonly reason: string }[];
  readonly crss: readonly string[];
  readonly zoom: number;
  readonly nativeZoom: number;
  readonly total: number;
  readonly headerBytesRead: number;
  /** Where the zoom's tiles are, per member: a pyramid's base (not printed). */
  readonly cover: LevelCover;
}

/**
 * `geohub plan` of a collection: the split's own member reading and union plan, over the local
 * files (ranged reads of each header), nothing uploaded. Unreadable members are listed, not fatal:
 * a dry run says what a run would refuse.
 */
export async function planCollectionLocally(
  members: readonly InputFile[],
  zoom: number | undefined,
  name: string,
): Promise<
  LocalCollectionPlan | { readonly unreadable: LocalCollectionPlan['unreadable']; readonly members: number }
> {
  const store = localFilesStore('local', new Map(members.map((m) => [m.path, m.path])));
  const read = await readMembers(
    store,
    members.map((m) => ({ key: m.path, etag: 'local' })),
    { bucket: 'local', engine: await chooseEngine('auto'), where: (key) => key },
  );
  // The header readers name an object by its bucket address: here, the user's path.
  const unreadable = read.unreadable.map((u) => ({
    key: u.key,
    reason: u.reason.split('s3://local/').join(''),
  }));
  if (read.planned.length === 0) return { unreadable, members: members.length };
  const plan = planCollection(read.planned, zoom, name, DEFAULT_MAX_TILES);
  return {
    kind: read.planned[0]!.header.kind,
    members: members.length,
    unreadable,
    crss: [...new Set(read.planned.map((m) => m.plan.crs))],
    zoom: plan.zoom,
    nativeZoom: plan.nativeZoom,
    total: plan.total,
    headerBytesRead: read.read.bytes,
    cover: plan.cover,
  };
}
