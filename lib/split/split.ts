import { isCollectionKey } from '../collection/collection-manifest.js';
import { planCollectionSource } from '../collection/plan-collection-source.js';
import { writeRunMembers } from '../collection/run-members.js';
import type { Ledger } from '../ledger/ledger.js';
import type { ManifestRef } from '../manifest/manifest-ref.js';
import { MANIFEST_PART_LINES } from '../manifest/manifest-ref.js';
import { writeManifest } from '../manifest/write-manifest.js';
import { runIdFor, tileIdFor } from '../model/ids.js';
import type { Metatile } from '../model/metatile.js';
import type { OperationName, RunStatus } from '../model/run.js';
import { isDisplayFormat } from '../model/tile-format.js';
import { chooseEngine, type PointcloudEngine } from '../operations/pointcloud-engine.js';
import { lowerLevelTiles } from '../pyramid/pyramid-plan.js';
import { type WrittenLevels, writeLevels } from '../pyramid/write-levels.js';
import type { SourceHeader } from '../source/source-header.js';
import type { ObjectStore } from '../store/object-store.js';
import type { Bbox } from '../tiling/bbox.js';
import { fitOneTileZoom } from '../tiling/fit-zoom.js';
import type { TileCoord } from '../tiling/tile-coord.js';
import { ForeignBucketError, OperationMismatchError, RunConflictError } from './errors.js';
import { normaliseParams, paramsVersion, zoomLevels } from './job-params.js';
import { planSingleSource } from './plan-single-source.js';
import { DEFAULT_MAX_TILES } from './plan-tiles.js';
import { checkPyramidSize } from './pyramid-size.js';
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
  /** The base level (the only one, unless the run is a pyramid). */
  readonly zoom: number;
  /** A pyramid's lowest level; `zoom` for a run of one level. */
  readonly minZoom: number;
  readonly nativeZoom: number;
  /** Sub-tiles of every level. */
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
const KIND_OF_OPERATION: Readonly<Record<OperationName, SourceHeader['kind']>> = {
  'raster-xyz': 'raster',
  'pointcloud-dtm': 'pointcloud',
};

/**
 * Splits one uploaded source, or a collection (a `*.collection.json` manifest of members), into
 * sub-tiles: reads the headers by ranged GETs, plans the XYZ tile cover (of the members' union),
 * writes the manifest to `runs/<runId>/` (a collection's member list first), and records the run
 * (SPLITTING, then RUNNING with its total) in the ledger. Idempotent: a repeated event for the same object version rewrites the
 * same manifest and finds the same run.
 */
export async function split(request: SplitRequest, deps: SplitDeps): Promise<SplitResult> {
  const { store, ledger, signal } = deps;
  const { source } = request;
  const where = `s3://${source.bucket}/${source.key}`;
  if (source.bucket !== store.bucket) {
    throw new ForeignBucketError(`${where} is not in this deployment's bucket ${store.bucket}`);
  }

  const levels = zoomLevels(request.params.zoom);
  // Display tiles for a web map, no zoom given: the whole pyramid, as gdal2tiles.py makes it.
  const fullPyramid = levels === undefined && isDisplayFormat(request.params.format ?? 'gtiff');
  const aligned = fullPyramid || (levels !== undefined && levels.min < levels.max);
  const planOptions = {
    zoom: levels?.max,
    aligned,
    sourceCrs: request.params.sourceCrs,
    maxTiles: deps.maxTiles ?? DEFAULT_MAX_TILES,
    tilesPerMessage: deps.tilesPerMessage,
    engine: async () => deps.pointcloudEngine ?? (await chooseEngine('auto')),
    signal,
  };
  const plan = isCollectionKey(source.key)
    ? await planCollectionSource(store, source, {
        ...planOptions,
        ...(request.operation ? { kind: KIND_OF_OPERATION[request.operation] } : {}),
      })
    : await planSingleSource(store, source, planOptions);
  const operation = request.operation ?? OPERATION_FOR_KIND[plan.kind];
  if (OPERATION_FOR_KIND[plan.kind] !== operation) {
    throw new OperationMismatchError(
      `${where} is a ${plan.kind === 'raster' ? 'raster' : 'point cloud'}; operation ${operation} does not apply to it ` +
        `(use ${OPERATION_FOR_KIND[plan.kind]})`,
    );
  }
  const minZoom = levels ? levels.min : fullPyramid ? fitOneTileZoom(plan.bbox3857, plan.zoom) : plan.zoom;
  const pyramid = minZoom < plan.zoom;
  const pyramidPlan = {
    minZoom,
    maxZoom: plan.zoom,
    base: plan.cover,
    tilesPerMessage: plan.tilesPerMessage,
  };
  if (pyramid)
    checkPyramidSize(plan.total, lowerLevelTiles(pyramidPlan), where, deps.maxTiles ?? DEFAULT_MAX_TILES);
  const params = normaliseParams(operation, request.params, plan.zoom, minZoom, plan.values, where);
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
    sourceDatetime: plan.datetime,
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

  if (plan.members) await writeRunMembers(store, runId, plan.members, signal);
  const tileId = (tile: TileCoord) => tileIdFor(runId, operation, version, tile);
  const partLines = deps.partLines ?? MANIFEST_PART_LINES;
  // A pyramid's lower levels first (each line names where its parent's are), then the base.
  const written = pyramid
    ? await writeLevels(store, pyramidPlan, { runId, tileId, partLines, signal })
    : undefined;
  const manifest = await writeManifest(
    store,
    written ? linked(plan.metatiles(tileId), written) : plan.metatiles(tileId),
    {
      runId,
      partLines,
      tilesPerMessage: plan.tilesPerMessage,
      ...(written ? { levels: written.levels } : {}),
      signal,
    },
  );
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
    minZoom,
    nativeZoom: plan.nativeZoom,
    total: manifest.total,
    bbox3857: plan.bbox3857,
    manifest,
    headerBytesRead: plan.headerBytesRead,
  };
}

/** The base level's metatiles, each linked to its parent's lines; checked whole at the end. */
function* linked(metatiles: Iterable<Metatile>, written: WrittenLevels): Generator<Metatile> {
  for (const metatile of metatiles) yield written.linkBase(metatile);
  written.checkBaseComplete();
}
