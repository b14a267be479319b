/** docs/benchmarks.md's table, written from the results of `npm run bench` (docs/benchmarks.json). */
import type { CancelFigures } from './cancel.js';
import type { CollectionPlanFigures } from './collection-plan.js';
import type { CountedRun } from './counted.js';
import type { GraceFigures } from './grace.js';
import type { OverheadFigures } from './overhead.js';
import type { PdalBench } from './pdal-engines.js';
import type { PyramidFigures } from './pyramid.js';
import type { RerunFigures, SigtermResume, SigtermRun } from './resume.js';
import type { SplitBundleResult } from './split-bundle.js';
import type { StartupProfile } from './startup-profile.js';
import { PROBE_STEPS } from './support/cpu-speed.js';
import type { machine } from './support/machine.js';
import { pdalRows } from './support/pdal-rows.js';
import { crossoverRow, overheadRows } from './support/peer-rows.js';
import type { pricePer1000 } from './support/price.js';
import { type Provenance, showAt, showCommit } from './support/provenance.js';
import type { Section } from './support/sections.js';
import { type Spread, showSpread } from './support/stats.js';

export interface BenchResults {
  readonly at: string;
  /** The code the run measured (older results lack it). */
  readonly commit?: string;
  readonly dirty?: boolean;
  /** Each section's provenance: the run's own, or an earlier run's kept by a partial re-measure. */
  readonly measured?: Partial<Record<Section, Provenance>>;
  /** Set by a partial re-measure (`--only`): the sections it measured. */
  readonly only?: readonly Section[];
  readonly machine: ReturnType<typeof machine>;
  /** The 1-minute load average sampled while the bench ran. */
  readonly load?: Spread;
  /** The speed probe's seconds while it ran (support/cpu-speed.ts): older results lack it. */
  readonly speed?: Spread;
  readonly runs: number;
  readonly workers: number;
  /** Unset for the figures saved so far by a bench that did not finish. */
  readonly totalSeconds?: number;
  readonly overhead: readonly OverheadFigures[];
  /** bench/startup-profile.ts: the small job's phases, cold and on a running up. */
  readonly startup?: StartupProfile;
  /** bench/pyramid.ts: a full pyramid against gdal2tiles.py's default job. */
  readonly pyramid?: readonly PyramidFigures[];
  readonly counted?: CountedRun;
  readonly split?: {
    readonly subTiles: number;
    readonly splitMs: Spread;
    readonly enqueueMs: Spread;
    readonly longestCallMs: number;
    readonly peakRssMiB: { readonly split: number; readonly enqueue: number };
  };
  /** bench/collection-plan.ts, run `runs` times: the split of a collection of many small files. */
  readonly collection?: CollectionPlanFigures;
  /** bench/finalize-million.ts's JSON: finalize of a run whose markers were seeded through the ledger. */
  readonly finalized?: {
    readonly subTiles: number;
    readonly finalize: {
      readonly ms: number;
      readonly peakRssMiB: number;
      readonly lambda: { readonly memoryMiB: number; readonly timeoutSeconds: number };
      readonly phases: Readonly<Record<string, { readonly ms: number }>>;
    };
    readonly mosaic: { readonly blocks: number; readonly gdalinfoMs: number };
  };
  readonly resume?: {
    readonly sigterm?: SigtermResume;
    readonly rerun?: RerunFigures;
  };
  readonly cancel?: {
    readonly cooperative: CancelFigures;
    readonly stubborn: CancelFigures & { graceMs: number };
    /** Older results lack it. */
    readonly grace?: GraceFigures;
  };
  readonly cost?: ReturnType<typeof pricePer1000>;
  /** bench/split-bundle.ts: the split Lambda with and without the EPSG registry. */
  readonly bundle?: SplitBundleResult;
  /** bench/pdal-engines.ts: the point-cloud engines, and the sizing's worst case. */
  readonly pdal?: PdalBench;
}

const DYNAMO_WRITES = ['PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems', 'BatchWriteItem'].map(
  (c) => `DynamoDB.${c}Command`,
);

const cancelCell = (c: CancelFigures) =>
  `${c.groupDeadMs.median} / ${c.partGoneMs.median} / ${c.claimReleasedMs.median} ms (group dead ${c.groupDeadMs.min}–${c.groupDeadMs.max})`;

/** A section measured by an earlier run than the results' own: says when, on which commit. */
export function olderNote(r: BenchResults, section: Section): string {
  const p = r.measured?.[section];
  return p && p.at !== r.at
    ? ` *(older: measured ${showAt(p.at)} on ${showCommit(p)}${p.load ? `, load average ${p.load.median} (${p.load.min}–${p.load.max})` : ''}${p.speed ? `, speed probe ${p.speed.median} s` : ''})*`
    : '';
}

export function benchTable(r: BenchResults): string {
  const m = r.machine;
  const w = r.workers;
  const older = (section: Section) => olderNote(r, section);
  const code = r.commit ? ` on commit ${showCommit({ commit: r.commit, dirty: Boolean(r.dirty) })}` : '';
  const scope =
    r.only !== undefined
      ? `\`npm run bench -- --only ${r.only.join(',')}\` re-measured those rows; the others say when and on which commit they were measured`
      : r.totalSeconds === undefined
        ? '**an interrupted run: only the rows below were measured**'
        : `\`npm run bench\` took ${r.totalSeconds} s and measured every row`;
  const rows = [
    `Measured ${showAt(r.at)}${code}, on ${m.cpus} × ${m.cpu}, ${m.memoryGiB} GiB, Node ${m.node}, ${m.gdal}${r.load ? `, load average ${r.load.median} (${r.load.min}–${r.load.max}) while it ran` : ''}${r.speed ? `, speed probe ${showSpread(r.speed)} (${PROBE_STEPS / 1e8}·10⁸ additions on one core, bench/support/cpu-speed.ts: the machine's share of its CPUs, which the load average does not show)` : ''}; ${scope}. Timings: median (min–max) of ${r.runs} runs; ${w} workers (\`geohub run\`'s default here: one per core) against ${w} tool processes. A ratio is the quotient of the two medians; a target is met only when it is.`,
    '',
    '| figure | result | target |',
    '| --- | --- | --- |',
  ];
  for (const [i, o] of r.overhead.entries()) {
    rows.push(...overheadRows(o, w, older('overhead')));
    // The line through two sizes of one raster where both were timed against the raw tool.
    const smaller = r.overhead
      .slice(0, i)
      .find((p) => p.raster === o.raster && p.tiles < o.tiles && p.rawDefault);
    const crossing = smaller && crossoverRow(smaller, o, w);
    if (crossing) rows.push(crossing);
  }
  const c = r.counted;
  const cost = r.cost;
  if (c && cost) {
    const per = (keys: (k: string) => boolean) =>
      Object.entries(c.requests).reduce((n, [k, v]) => n + (keys(k) ? v : 0), 0) / c.tiles;
    const sqs = per((k) => k.startsWith('SQS.'));
    const writes = per((k) => DYNAMO_WRITES.includes(k));
    const puts = cost.perSubTile.s3Puts;
    // Judged as every other row: a target is met only when the figure is within it.
    const within = (figure: number, target: number) =>
      figure <= target ? `met (${figure.toFixed(2)})` : `**not met** (${figure.toFixed(2)} > ${target})`;
    rows.push(
      `| AWS requests per sub-tile (a run of ${c.tiles} sub-tiles in ${Math.ceil(c.tiles / 16)}+ metatiles, every request counted; AWS's cadence: progress checked every 10 s, 20 s long polls; a run's fixed requests (split, enqueue, progress checks, finalize) spread over its sub-tiles)${older('counted')} | SQS ${sqs.toFixed(2)}, DynamoDB writes ${writes.toFixed(2)} (${cost.perSubTile.dynamoWriteUnits.toFixed(1)} WRU) + ${cost.perSubTile.dynamoReadUnits.toFixed(1)} RRU, S3 ${puts.toFixed(2)} PUT + ${cost.perSubTile.s3Gets.toFixed(1)} GET, ${cost.perSubTile.transitions.toFixed(2)} transitions | SQS ≤ 0.1: ${within(sqs, 0.1)}; DynamoDB writes ≤ 0.2: ${within(writes, 0.2)}; ≤ 1 PUT: ${within(puts, 1)} |`,
      `| CPU the local AWS stand-ins used during that run (a remote service on AWS)${older('counted')} | ${c.cpu.stack} CPU-s; the worker processes ${c.cpu.workers} CPU-s, of ${(c.runSeconds * m.cpus).toFixed(0)} CPU-s available | |`,
    );
  }
  if (r.split)
    rows.push(
      `| split + enqueue of ${r.split.subTiles.toLocaleString('en-US')} sub-tiles${older('split')} | split ${showSpread(r.split.splitMs, 'ms')}, enqueue ${showSpread(r.split.enqueueMs, 'ms')} (longest call ${r.split.longestCallMs} ms); peak RSS ${r.split.peakRssMiB.split} MiB (split), ${r.split.peakRssMiB.enqueue} MiB (enqueue) | within Lambda limits |`,
    );
  const p = r.collection;
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
  if (p)
    rows.push(
      `| split of a collection of ${p.members.toLocaleString('en-US')} files (1 km GeoTIFF sheets; every request to the bucket delayed ${p.latencyMs} ms, as S3's first byte) at zoom ${p.zoom}${older('collection')} | ${p.subTiles.toLocaleString('en-US')} sub-tiles in ${showSpread(p.seconds)}, in one split call; peak RSS ${p.peakRssMiB} MiB (+${p.rssGrowthMiB} MiB); the collection manifest ${mb(p.collectionManifestBytes)}, the member list ${mb(p.memberListBytes)}, the tile manifest (the index: each metatile's members) ${mb(p.manifestBytes)} in ${p.manifestParts} parts | within the split Lambda's limits (1,024 MB, 300 s) |`,
    );
  const f = r.finalized;
  if (f)
    rows.push(
      `| finalize of ${f.subTiles.toLocaleString('en-US')} sub-tiles (Lambda: ${f.finalize.lambda.memoryMiB} MB, ${f.finalize.lambda.timeoutSeconds} s)${older('finalize')} | ${(f.finalize.ms / 1000).toFixed(0)} s (markers read from DynamoDB Local ${(f.finalize.phases['markers read'].ms / 1000).toFixed(0)} s), peak RSS ${f.finalize.peakRssMiB} MiB; gdalinfo opens the ${f.mosaic.blocks}-block mosaic in ${f.mosaic.gdalinfoMs} ms | within the finalize Lambda's limits; seconds |`,
    );
  const s = r.resume?.sigterm;
  const sigtermRuns = (runs: readonly SigtermRun[]) =>
    runs
      .map((x) => `${x.inFlightTiles} in flight (${x.inFlightMetatiles} metatiles) → ${x.redone} redone`)
      .join('; ');
  if (s)
    rows.push(
      `| SIGTERM to a worker while its tool runs (${s.tiles} sub-tiles; in flight: the sub-tiles of the metatiles it held, in its tool or uploading), production grace (120 s)${older('sigterm')} | ${sigtermRuns(s.graceful)} | redone ≤ in flight |`,
      `| same, no grace left (in-flight work cancelled and given back)${older('sigterm')} | ${sigtermRuns(s.abrupt)} | redone ≤ in flight |`,
    );
  const rerun = r.resume?.rerun;
  if (rerun)
    rows.push(
      `| re-run of a completed ${rerun.tiles}-sub-tile run made by real warps (${rerun.messages} messages sent again)${older('rerun')} | every message handled in ${showSpread(rerun.rerun)}, queue empty in ${showSpread(rerun.queueEmpty)}; ${rerun.toolInvocations} tool runs | ≤ 3 s, no tool run |`,
    );
  if (r.cancel)
    rows.push(
      `| cancel through a worker → group dead / .part gone / claim released, cooperative tool (via execution stop)${older('cancel')} | ${cancelCell(r.cancel.cooperative)} | within the run-status poll + grace |`,
      `| same, a tool that ignores SIGTERM (kill grace ${r.cancel.stubborn.graceMs / 1000} s; it had written its .part in ${r.cancel.stubborn.partsWritten} of ${r.cancel.stubborn.groupDeadMs.runs} runs)${older('cancel')} | ${cancelCell(r.cancel.stubborn)} | ≈ the kill grace |`,
    );
  const grace = r.cancel?.grace;
  if (grace)
    rows.push(
      `| the kill grace, measured: SIGTERM → the metatile engine's group gone, mid-warp, its source read through \`/vsis3/\` from the S3 stand-in; then from a local copy${older('cancel')} | ${showSpread(grace.vsis3Ms, 'ms')}; local copy ${showSpread(grace.localMs, 'ms')} | well under the grace (${grace.graceMs / 1000} s) |`,
    );
  const b = r.bundle;
  // A difference within the noise of a cold start may come out below zero.
  const signed = (n: number) => (n < 0 ? `−${-n}` : `+${n}`);
  const mbOf = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  if (b)
    rows.push(
      `| split Lambda bundle with the EPSG registry (from PROJ's database), and its cold start (import + first CRS lookup, median of ${b.samples})${older('bundle')} | ${mbOf(b.withRegistry.bundleBytes)} (${mbOf(b.withRegistry.bundleDeflatedBytes)} deflated) against ${mbOf(b.withoutRegistry.bundleBytes)} without it; ${signed(Math.round(b.withRegistry.importCpuMsMedian - b.withoutRegistry.importCpuMsMedian))} ms CPU, +${Math.round(b.withRegistry.rssMiBMedian - b.withoutRegistry.rssMiBMedian)} MiB at init, ${Math.round(b.withRegistry.firstLookupMsMedian)} ms for the first lookup (unpacking the registry); ${b.withinLambdaLimits ? 'within' : '**over**'} Lambda's limits | 50 MB zipped, 250 MB unzipped |`,
    );
  if (r.pdal) rows.push(...pdalRows(r.pdal, older('pdal')));
  if (cost)
    rows.push(
      `| request cost per 1,000 sub-tiles${older('counted')} | $${cost.usdPer1000.total.toFixed(4)} (SQS $${cost.usdPer1000.sqs.toFixed(4)}, DynamoDB $${cost.usdPer1000.dynamodb.toFixed(4)}, S3 $${cost.usdPer1000.s3.toFixed(4)}, Step Functions $${cost.usdPer1000.stepFunctions.toFixed(4)}) | |`,
    );
  return rows.join('\n');
}
