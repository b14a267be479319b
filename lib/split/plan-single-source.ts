import type { SourceRef } from '../model/run.js';
import type { PointcloudEngine } from '../operations/pointcloud-engine.js';
import { checkWorkersCanDecode } from '../pointcloud/engine-point-formats.js';
import { alignedMetatiles } from '../pyramid/pyramid-plan.js';
import { readSourceHeader } from '../source/read-source-header.js';
import { sourcePin } from '../source/source-pin.js';
import type { ObjectStore } from '../store/object-store.js';
import { coverMetatiles } from './group-metatiles.js';
import { metatileSize } from './metatile-size.js';
import { planTiles } from './plan-tiles.js';
import type { PlannedSource } from './planned-source.js';
import { sourceValues } from './source-values.js';

export interface PlanSourceOptions {
  readonly zoom?: number;
  /**
   * Metatiles in blocks aligned on the grid (x div 4, y div 4), as a pyramid's levels need: a
   * parent block's children are then exactly four blocks. Else counted from the range's corner
   * (fewer, fuller blocks for a run of one level).
   */
  readonly aligned?: boolean;
  readonly sourceCrs?: string;
  readonly maxTiles: number;
  readonly tilesPerMessage?: number;
  readonly engine: () => Promise<PointcloudEngine>;
  readonly signal?: AbortSignal;
}

/** One uploaded file: its header by ranged GETs of its version, its cover, its metatile size. */
export async function planSingleSource(
  store: ObjectStore,
  source: SourceRef,
  options: PlanSourceOptions,
): Promise<PlannedSource> {
  const where = `s3://${source.bucket}/${source.key}`;
  const { header, read } = await readSourceHeader(store, source.key, {
    signal: options.signal,
    pin: sourcePin(source),
  });
  checkWorkersCanDecode(header, await options.engine(), where);
  const plan = planTiles(header, options.zoom, where, options.maxTiles, options.sourceCrs);
  // Sized to the work per tile (metatile-size.ts), never over the deployment's cap.
  const size = metatileSize(header, plan, options.tilesPerMessage);
  return {
    kind: header.kind,
    ...(header.datetime ? { datetime: header.datetime } : {}),
    warnings: plan.warnings,
    zoom: plan.zoom,
    nativeZoom: plan.nativeZoom,
    bbox3857: plan.bbox3857,
    total: plan.total,
    cover: [plan.ranges],
    values: sourceValues([header]),
    tilesPerMessage: size.tilesPerMessage,
    headerBytesRead: read.bytes,
    metatiles: options.aligned
      ? (tileId) => alignedMetatiles([plan.ranges], plan.zoom, tileId, size.tilesPerMessage)
      : (tileId) => coverMetatiles(plan.ranges, tileId, size.tilesPerMessage),
  };
}
