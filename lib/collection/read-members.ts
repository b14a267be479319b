import PQueue from 'p-queue';
import { GeohubError } from '../errors/geohub-error.js';
import type { PointcloudEngine } from '../operations/pointcloud-engine.js';
import { checkWorkersCanDecode } from '../pointcloud/engine-point-formats.js';
import { SourceNotFoundError, SourceReadError } from '../source/errors.js';
import { readSourceHeader } from '../source/read-source-header.js';
import type { SourceHeader } from '../source/source-header.js';
import { planTiles } from '../split/plan-tiles.js';
import type { ObjectStore } from '../store/object-store.js';
import type { CollectionMember } from './collection-manifest.js';
import type { PlannedMember } from './plan-collection.js';
import type { RunMember } from './run-members.js';

/** Member headers read at once: enough to hide S3's latency, few enough for a Lambda's sockets. */
export const HEADER_READS_IN_FLIGHT = 32;

export interface ReadMembersOptions {
  readonly bucket: string;
  /** The kind the run's operation works on; absent: the first readable member's. */
  readonly kind?: SourceHeader['kind'];
  /** The job's source CRS, replacing every member's (as `gdalwarp -s_srs`). */
  readonly sourceCrs?: string;
  readonly engine: PointcloudEngine;
  readonly signal?: AbortSignal;
  /** How a member is named in messages (default its S3 address). */
  readonly where?: (key: string) => string;
}

export interface MembersRead {
  /** Readable members, in the manifest's order: their index is a metatile's member index. */
  readonly planned: (PlannedMember & { readonly member: RunMember })[];
  /** Members that cannot be read, each with one line saying why. */
  readonly unreadable: { readonly key: string; readonly reason: string }[];
  /** Header bytes read and ranged GETs made, over every member. */
  readonly read: { bytes: number; requests: number };
}

const unquoted = (etag: string) => etag.replace(/^"|"$/g, '');

const describeRaster = (h: Extract<SourceHeader, { kind: 'raster' }>) =>
  `${h.bands} band${h.bands === 1 ? '' : 's'} of ${h.dataType}`;

/**
 * Reads every member's header by ranged GETs, each pinned to its listed version, at most
 * HEADER_READS_IN_FLIGHT at once, and plans each alone. What is wrong with a member itself
 * (corrupt, truncated, no CRS, not georeferenced, another kind of data than the collection's,
 * other bands than its first raster's) makes it unreadable, with why; a failure of S3 itself
 * (throttling, a network error: SourceReadError) fails the whole read, to be retried.
 */
export async function readMembers(
  store: ObjectStore,
  members: readonly CollectionMember[],
  options: ReadMembersOptions,
): Promise<MembersRead> {
  const nameOf = options.where ?? ((key: string) => `s3://${options.bucket}/${key}`);
  const queue = new PQueue({ concurrency: HEADER_READS_IN_FLIGHT });
  const read = { bytes: 0, requests: 0 };
  const results = await Promise.all(
    members.map((member) =>
      queue.add(async () => {
        const where = nameOf(member.key);
        try {
          // A member listed without its ETag (a STAC item) is pinned to the version found now.
          const found = member.etag ? undefined : await store.head(member.key, { signal: options.signal });
          if (!member.etag && !found) throw new SourceNotFoundError(`${where} does not exist`);
          const etag = unquoted(member.etag ?? found!.etag);
          const versionId = member.versionId ?? found?.versionId;
          const pin = { etag, ...(versionId ? { versionId } : {}) };
          const got = await readSourceHeader(store, member.key, { signal: options.signal, pin });
          read.bytes += got.read.bytes;
          read.requests += got.read.requests;
          checkWorkersCanDecode(got.header, options.engine, where);
          const plan = planTiles(got.header, undefined, where, Number.POSITIVE_INFINITY, options.sourceCrs);
          const runMember: RunMember = {
            key: member.key,
            version: versionId ?? etag,
            etag,
            bytes: got.header.bytes,
          };
          return { ok: true as const, header: got.header, plan, member: runMember };
        } catch (error) {
          if (error instanceof SourceReadError || !(error instanceof GeohubError)) throw error;
          return { ok: false as const, key: member.key, reason: error.message };
        }
      }),
    ),
  );
  const planned: MembersRead['planned'] = [];
  const unreadable: MembersRead['unreadable'] = [];
  const kind = options.kind ?? results.find((r) => r.ok)?.header.kind;
  for (const r of results) {
    if (!r.ok) {
      unreadable.push({ key: r.key, reason: r.reason });
      continue;
    }
    const where = nameOf(r.member.key);
    const first = planned[0]?.header;
    if (r.header.kind !== kind) {
      const what = r.header.kind === 'raster' ? 'a raster' : 'a point cloud';
      unreadable.push({
        key: r.member.key,
        reason: `${where} is ${what}, in a collection of ${kind === 'raster' ? 'rasters' : 'point clouds'}`,
      });
    } else if (
      r.header.kind === 'raster' &&
      first?.kind === 'raster' &&
      describeRaster(r.header) !== describeRaster(first)
    ) {
      unreadable.push({
        key: r.member.key,
        reason: `${where} has ${describeRaster(r.header)}, where the collection's first raster has ${describeRaster(first)}`,
      });
    } else {
      planned.push(r);
    }
  }
  return { planned, unreadable, read };
}
