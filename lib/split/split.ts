import type { Ledger } from '../ledger/ledger.js';
import type { ManifestRef } from '../manifest/manifest-ref.js';
import { writeManifest } from '../manifest/write-manifest.js';
import { runIdFor, tileIdFor } from '../model/ids.js';
import type { OperationName, RunStatus } from '../model/run.js';
import { chooseEngine, type PointcloudEngine } from '../operations/pointcloud-engine.js';
import { checkWorkersCanDecode } from '../pointcloud/engine-point-formats.js';
import { readSourceHeader } from '../source/read-source-header.js';
import type { SourceHeader } from '../source/source-header.js';
import { sourcePin } from '../source/source-pin.js';
import type { ObjectStore } from '../store/object-store.js';
import type { Bbox } from '../tiling/bbox.js';
import type { TileCoord } from '../tiling/tile-coord.js';
import { ForeignBucketError, OperationMismatchError, RunConflictError } from './errors.js';
import { coverMetatiles } from './group-metatiles.js';
import { normaliseParams, paramsVersion } from './job-params.js';
import { metatileSize } from './metatile-size.js';
import { DEFAULT_MAX_TILES, planTiles } from './plan-tiles.js';
import type { SplitRequest } from './split-request.js';

export interface SplitDeps {
  readonly store: ObjectStore;
  readonly ledger: Ledger;
  /** Cap on sub-tiles per run (default DEFAULT_MAX_TILES). */
  readonly maxTiles?: number;
  /** Lines per manifest part (default MANIFEST_PART_LINES); tests make it small. */
  readonly partLines?: number;
  /** Sub-tiles per work message for this run (GEOHUB_TILES_PER_MESSAGE; default the maximum). */
  readonly tilesPerMessage?: number;
  /**
   * The point-cloud engine the deployment's workers run (GEOHUB_POINTCLOUD_ENGINE; default as
   * the workers choose: PDAL when it is on PATH): a file they cannot decode is refused here.
   */
  readonly pointcloudEngine?: PointcloudEngine;
  readonly signal?: AbortSignal;
}

/** What the state machine carries on: a reference to the manifest, never the tiles themselves. */
export interface SplitResult {
  readonly runId: string;
  readonly operation: OperationName;
  readonly paramsVersion: string;
  readonly zoom: number;
  readonly nativeZoom: number;
  readonly total: number;
  readonly bbox3857: Bbox;
  readonly manifest: ManifestRef;
  /** Bytes of the source read to plan the run (the header only). */
  readonly headerBytesRead: number;
}

/** States in which a re-delivered split may (re)write the same manifest. */
const SPLITTABLE: readonly RunStatus[] = ['SPLITTING', 'RUNNING'];

const OPERATION_FOR_KIND: Readonly<Record<SourceHeader['kind'], OperationName>> = {
  raster: 'raster-xyz',
  pointcloud: 'pointcloud-dtm',
};

/**
 * Splits one uploaded source into sub-tiles: reads its header by ranged GETs, plans the XYZ tile
 * cover, writes the manifest to `runs/<runId>/`, and records the run (SPLITTING, then RUNNING with
 * its total) in the ledger. Idempotent: a repeated event for the same object version rewrites the
 * same manifest and finds the same run.
 */
export async function split(request: SplitRequest, deps: SplitDeps): Promise<SplitResult> {
  const { store, ledger, signal } = deps;
  const { source } = request;
  const where = `s3://${source.bucket}/${source.key}`;
  if (source.bucket !== store.bucket) {
    throw new ForeignBucketError(`${where} is not in this deployment's bucket ${store.bucket}`);
  }

  const { header, read } = await readSourceHeader(store, source.key, { signal, pin: sourcePin(source) });
  const operation = request.operation ?? OPERATION_FOR_KIND[header.kind];
  if (OPERATION_FOR_KIND[header.kind] !== operation) {
    throw new OperationMismatchError(
      `${where} is a ${header.kind === 'raster' ? 'raster' : 'point cloud'}; operation ${operation} does not apply to it ` +
        `(use ${OPERATION_FOR_KIND[header.kind]})`,
    );
  }
  checkWorkersCanDecode(header, deps.pointcloudEngine ?? (await chooseEngine('auto')), where);
  const plan = planTiles(
    header,
    request.params.zoom,
    where,
    deps.maxTiles ?? DEFAULT_MAX_TILES,
    request.params.sourceCrs,
  );
  const params = normaliseParams(operation, request.params, plan.zoom);
  const version = paramsVersion(operation, params);
  const runId = runIdFor(source);

  const created = await ledger.createRun({
    runId,
    status: 'SPLITTING',
    source,
    operation,
    params,
    paramsVersion: version,
    total: 0,
    executionArn: request.executionArn,
    sourceDatetime: header.datetime,
    ...(plan.warnings.length > 0 ? { warnings: plan.warnings } : {}),
  });
  if (created === 'exists') {
    const existing = await ledger.getRun(runId);
    if (existing && existing.paramsVersion !== version) {
      throw new RunConflictError(
        `run ${runId} for ${where} already exists with other parameters (${existing.paramsVersion}, now ${version}); ` +
          'upload the source again to start a new run',
      );
    }
    if (existing && !SPLITTABLE.includes(existing.status)) {
      throw new RunConflictError(`run ${runId} for ${where} is ${existing.status}; it is not split again`);
    }
  }

  // Sized to the work per tile (metatile-size.ts), never over the deployment's cap.
  const size = metatileSize(header, plan, deps.tilesPerMessage);
  const tileId = (tile: TileCoord) => tileIdFor(runId, operation, version, tile);
  const manifest = await writeManifest(store, coverMetatiles(plan.ranges, tileId, size.tilesPerMessage), {
    runId,
    partLines: deps.partLines,
    tilesPerMessage: size.tilesPerMessage,
    signal,
  });
  const updated = await ledger.updateRun(runId, { status: 'RUNNING', total: manifest.total }, SPLITTABLE);
  if (!updated) {
    const now = await ledger.getRun(runId);
    throw new RunConflictError(
      `run ${runId} for ${where} became ${now?.status ?? 'absent'} while it was being split`,
    );
  }
  return {
    runId,
    operation,
    paramsVersion: version,
    zoom: plan.zoom,
    nativeZoom: plan.nativeZoom,
    total: manifest.total,
    bbox3857: plan.bbox3857,
    manifest,
    headerBytesRead: read.bytes,
  };
}
