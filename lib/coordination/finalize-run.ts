import { RunNotFoundError } from '../ledger/errors.js';
import type { Ledger } from '../ledger/ledger.js';
import { listTiles } from '../ledger/tile-records.js';
import type { RunCounters, TileError } from '../model/run.js';
import { readSourceHeader } from '../source/read-source-header.js';
import type { ObjectStore } from '../store/object-store.js';
import { mosaicVrt } from './mosaic-vrt.js';
import { type StacTile, stacCollection, stacItem } from './stac-catalog.js';

export interface FinalizeResult {
  readonly runId: string;
  readonly status: 'SUCCEEDED' | 'FAILED';
  readonly counters: RunCounters;
  /** Keys of what was written, under the run's tile prefix. */
  readonly outputs: {
    readonly prefix: string;
    readonly mosaic?: string;
    readonly stac?: string;
    readonly summary: string;
  };
  readonly reason?: string;
}

export interface FinalizeDeps {
  readonly ledger: Ledger;
  readonly store: ObjectStore;
  readonly now?: () => Date;
}

/**
 * The end of a run: the mosaic VRT and the STAC collection over every marked tile, and a
 * summary with an exact per-sub-tile account. The run SUCCEEDS only if every sub-tile is done.
 */
export async function finalizeRun(deps: FinalizeDeps, runId: string): Promise<FinalizeResult> {
  const run = await deps.ledger.getRun(runId);
  if (!run) throw new RunNotFoundError(runId);
  const datetime = (deps.now?.() ?? new Date()).toISOString();
  const prefix = `tiles/${runId}`;
  const done: (StacTile & { key: string })[] = [];
  const problems: { tileId: string; z: number; x: number; y: number; state: string; error?: TileError }[] =
    [];
  for await (const t of listTiles(deps.ledger, runId)) {
    if (t.state === 'DONE' && t.output)
      done.push({ z: t.z, x: t.x, y: t.y, bytes: t.output.bytes, key: t.output.key });
    else if (t.state !== 'DONE')
      problems.push({ tileId: t.tileId, z: t.z, x: t.x, y: t.y, state: t.state, error: t.error });
  }
  done.sort((a, b) => a.z - b.z || a.y - b.y || a.x - b.x);

  let mosaic: string | undefined;
  let stac: string | undefined;
  if (done.length > 0) {
    // Band layout from one tile's header (ranged GETs): every tile of a run shares it.
    const { header } = await readSourceHeader(deps.store, done[0]!.key);
    if (header.kind !== 'raster') throw new Error(`tile ${done[0]!.key} is not a raster`);
    mosaic = `${prefix}/mosaic.vrt`;
    await deps.store.putText(
      mosaic,
      mosaicVrt(done, { count: header.bands, dataType: header.dataType, nodata: header.nodata }),
      {
        contentType: 'application/xml',
      },
    );
    stac = `${prefix}/collection.json`;
    const description = `geohub run ${runId}: ${run.operation} of s3://${run.source.bucket}/${run.source.key}`;
    await deps.store.putText(
      `${prefix}/items.json`,
      JSON.stringify({ type: 'FeatureCollection', features: done.map((t) => stacItem(runId, t, datetime)) }),
      { contentType: 'application/geo+json' },
    );
    await deps.store.putText(
      stac,
      JSON.stringify(stacCollection(runId, description, done, datetime), null, 2),
      {
        contentType: 'application/json',
      },
    );
  }

  const c = run.counters;
  const complete = c.done === c.total && problems.length === 0;
  const reason = complete
    ? undefined
    : `${c.total - c.done} of ${c.total} sub-tiles not done: ${c.failed} failed, ${c.parked} parked, ` +
      `${c.cancelled} cancelled, ${c.total - c.done - c.failed - c.parked - c.cancelled} unaccounted (dead-lettered)`;
  const summary = `${prefix}/summary.json`;
  await deps.store.putText(
    summary,
    JSON.stringify(
      {
        runId,
        status: complete ? 'SUCCEEDED' : 'FAILED',
        reason,
        counters: c,
        problems,
        finishedAt: datetime,
      },
      null,
      2,
    ),
    { contentType: 'application/json' },
  );
  const status = complete ? 'SUCCEEDED' : 'FAILED';
  await deps.ledger.updateRun(runId, { status, reason }, ['RUNNING']);
  return { runId, status, counters: c, outputs: { prefix, mosaic, stac, summary }, reason };
}
