import type { SourceRef } from '../model/run.js';
import { sourcePin } from '../source/source-pin.js';
import { metatileSize } from '../split/metatile-size.js';
import type { PlanSourceOptions } from '../split/plan-single-source.js';
import type { PlannedSource } from '../split/planned-source.js';
import { sourceValues } from '../split/source-values.js';
import type { ObjectStore } from '../store/object-store.js';
import { MAX_COLLECTION_BYTES } from './collection-manifest.js';
import { InvalidCollectionError, UnreadableMembersError } from './errors.js';
import { parseCollectionManifest } from './parse-collection-manifest.js';
import { planCollection } from './plan-collection.js';
import { readMembers } from './read-members.js';

/** Unreadable members named in a refusal: the rest are counted (the run's record stays small). */
const NAMED_IN_A_REFUSAL = 20;

/**
 * A collection: its manifest (read at the uploaded version), every member's header, the plan of
 * their union. Unreadable members refuse the run, each named in one line with why, unless the
 * manifest says `skipUnreadable`: then they are left out and recorded.
 */
export async function planCollectionSource(
  store: ObjectStore,
  source: SourceRef,
  options: PlanSourceOptions & { readonly kind?: 'raster' | 'pointcloud' },
): Promise<PlannedSource> {
  const where = `s3://${source.bucket}/${source.key}`;
  const pin = sourcePin(source);
  const head = await store.head(source.key, { signal: options.signal, pin });
  if (!head)
    throw new InvalidCollectionError(`${where} was overwritten or deleted after its upload: upload it again`);
  if (head.bytes > MAX_COLLECTION_BYTES) {
    throw new InvalidCollectionError(
      `${where} is ${head.bytes} bytes; a collection manifest is at most ${MAX_COLLECTION_BYTES}`,
    );
  }
  const text =
    head.bytes === 0
      ? ''
      : Buffer.from(
          await store.getRange(source.key, 0, head.bytes - 1, { signal: options.signal, pin }),
        ).toString('utf8');
  const manifest = parseCollectionManifest(text, where, source.bucket);
  const engine = await options.engine();
  const read = await readMembers(store, manifest.members, {
    bucket: source.bucket,
    kind: options.kind,
    sourceCrs: options.sourceCrs,
    engine,
    signal: options.signal,
  });
  const { planned, unreadable } = read;
  if (unreadable.length > 0 && (!manifest.skipUnreadable || planned.length === 0)) {
    const lines = unreadable.slice(0, NAMED_IN_A_REFUSAL).map((u) => `  ${u.reason}`);
    const more = unreadable.length - lines.length;
    throw new UnreadableMembersError(
      `${where}: ${unreadable.length} of ${manifest.members.length} members cannot be read` +
        (planned.length === 0 ? ', none can' : '; nothing was started (skipUnreadable: true skips them)') +
        `:\n${lines.join('\n')}${more > 0 ? `\n  … and ${more} more` : ''}`,
    );
  }
  const plan = planCollection(planned, options.zoom, where, options.maxTiles);
  // The most demanding member sizes the metatiles: every metatile stays within its budget.
  const tilesPerMessage = Math.min(
    ...planned.map(
      (m) =>
        metatileSize(m.header, { zoom: plan.zoom, bbox3857: m.plan.bbox3857 }, options.tilesPerMessage)
          .tilesPerMessage,
    ),
  );
  const skipped = unreadable.map((u) => ({ key: u.key, reason: u.reason }));
  const datetime = planned[0]?.header.datetime;
  return {
    kind: planned[0]!.header.kind,
    ...(datetime ? { datetime } : {}),
    warnings: [
      ...new Set(planned.flatMap((m) => m.plan.warnings)),
      ...skipped.slice(0, NAMED_IN_A_REFUSAL).map((u) => `member skipped: ${u.reason}`),
      ...(skipped.length > NAMED_IN_A_REFUSAL
        ? [`… and ${skipped.length - NAMED_IN_A_REFUSAL} more members skipped`]
        : []),
    ],
    zoom: plan.zoom,
    nativeZoom: plan.nativeZoom,
    bbox3857: plan.bbox3857,
    total: plan.total,
    cover: plan.cover,
    values: sourceValues(planned.map((m) => m.header)),
    tilesPerMessage,
    headerBytesRead: read.read.bytes + head.bytes,
    members: { collection: source.key, members: planned.map((m) => m.member), skipped },
    metatiles: (tileId) => plan.metatiles(tileId, tilesPerMessage),
  };
}
