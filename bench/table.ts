/** The README's benchmark table, written from one `npm run bench` run's results. */
import type { CancelFigures } from './cancel.js';
import type { CountedRun } from './counted.js';
import type { OverheadFigures } from './overhead.js';
import type { RerunFigures, SigtermResume, SigtermRun } from './resume.js';
import type { SplitBundleResult } from './split-bundle.js';
import { crossover } from './support/crossover.js';
import type { machine } from './support/machine.js';
import type { pricePer1000 } from './support/price.js';
import { type Spread, showSpread } from './support/stats.js';

export interface BenchResults {
  readonly at: string;
  readonly machine: ReturnType<typeof machine>;
  /** The 1-minute load average sampled while the bench ran. */
  readonly load?: Spread;
  readonly runs: number;
  readonly workers: number;
  /** Unset for the figures saved so far by a bench that did not finish. */
  readonly totalSeconds?: number;
  readonly overhead: readonly OverheadFigures[];
  /** Set when the overhead rows come from a later `--only overhead` run (bench/merge-results.ts). */
  readonly overheadRun?: { readonly at: string; readonly load?: Spread };
  readonly counted?: CountedRun;
  readonly split?: {
    readonly subTiles: number;
    readonly splitMs: Spread;
    readonly enqueueMs: Spread;
    readonly longestCallMs: number;
    readonly peakRssMiB: { readonly split: number; readonly enqueue: number };
  };
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
  };
  readonly cost?: ReturnType<typeof pricePer1000>;
  /** bench/split-bundle.ts: the split Lambda with and without the EPSG registry. */
  readonly bundle?: SplitBundleResult;
}

const DYNAMO_WRITES = ['PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems', 'BatchWriteItem'].map(
  (c) => `DynamoDB.${c}Command`,
);

const cancelCell = (c: CancelFigures) =>
  `${c.groupDeadMs.median} / ${c.partGoneMs.median} / ${c.claimReleasedMs.median} ms (group dead ${c.groupDeadMs.min}–${c.groupDeadMs.max})`;

/** `geohub run` with its start-up against the raw tool at two job sizes of one raster. */
function crossoverRow(small: OverheadFigures, large: OverheadFigures, w: number): string {
  const size = (o: OverheadFigures) => ({
    tiles: o.tiles,
    withStartupSeconds: o.geohub.withStartup.median,
    rawSeconds: o.rawDefault.median,
  });
  const c = crossover(size(small), size(large), 0.8);
  const from =
    c.fromTiles === undefined
      ? 'never (geohub is not faster per sub-tile)'
      : `from about ${c.fromTiles.toLocaleString('en-US')} sub-tiles`;
  return `| \`geohub run\` with its start-up against \`xargs -P ${w} gdalwarp\`, by job size (a line through the two sizes above) | ×${small.ratios.includingStartup} at ${small.tiles} sub-tiles, ×${large.ratios.includingStartup} at ${large.tiles}: ${c.fixedSeconds} s fixed (start-up, stop, copy) + ${c.perThousandSeconds} s per 1,000 sub-tiles, against ${c.rawPerThousandSeconds} s per 1,000 for the raw tool; ≤ 0.8 ${from} | ≤ 0.8 |`;
}

export function benchTable(r: BenchResults): string {
  const m = r.machine;
  const w = r.workers;
  const rows = [
    `Measured ${r.at.slice(0, 10)} on ${m.cpus} × ${m.cpu}, ${m.memoryGiB} GiB, Node ${m.node}, ${m.gdal}${r.load ? `, load average ${r.load.median} (${r.load.min}–${r.load.max}) while it ran` : ''}; ${r.totalSeconds === undefined ? '**an interrupted run: only the rows below were measured**' : `\`npm run bench\` took ${r.totalSeconds} s`}. Timings: median (min–max) of ${r.runs} runs; ${w} workers (\`geohub run\`'s default here: one per core) against ${w} tool processes.`,
    '',
    '| figure | result | target |',
    '| --- | --- | --- |',
  ];
  const ov = r.overheadRun;
  if (ov && r.overhead.length > 0)
    rows.push(
      `| *the rows down to the last "by job size": measured apart (\`--only overhead\`, ${ov.at.slice(0, 16).replace('T', ' ')} UTC${ov.load ? `, load average ${ov.load.median} (${ov.load.min}–${ov.load.max})` : ''})* | | |`,
    );
  for (const [i, o] of r.overhead.entries()) {
    const x = o.ratios;
    rows.push(
      `| **${o.raster}**: ${o.tiles} sub-tiles at zoom ${o.zoom}, \`geohub\` (upload → split → workers → finalize) | ${showSpread(o.geohub.run)} without start-up (stack up, workers polling); \`geohub run\` from command to exit ${showSpread(o.geohub.withStartup)}${o.geohub.startup ? ` (the in-process hub, run from the TypeScript sources: start until every worker polls ${showSpread(o.geohub.startup)}, stop ${showSpread(o.geohub.stop!)})` : ''}; ${o.geohub.toolRuns} tool processes | |`,
      `| same tiles, \`xargs -P ${w} gdalwarp\` (GDAL's approximate transformer, geohub's default too) | ${showSpread(o.rawDefault)}: geohub **×${x.excludingStartup}** without start-up, **×${x.includingStartup}** with it | ≤ 0.6, ≤ 0.8 |`,
      `| same tiles, \`xargs -P ${w} gdalwarp -et 0\` (the exact transformer) | ${showSpread(o.rawExact)}: geohub ×${x.vsRawExact} without start-up | |`,
      `| \`gdal2tiles.py --xyz -z ${o.zoom} --processes=${w}\` (PNG, ${o.gdal2tiles.tiles} tiles) | ${showSpread(o.gdal2tiles)}: geohub **×${x.vsGdal2tiles}** without start-up | ≤ 1.5 |`,
      `| bytes per tile: per-tile gdalwarp (256×8 strips, DEFLATE) → geohub (one 256×256 block, DEFLATE + predictor) | ${o.bytesPerTile.before} → ${o.bytesPerTile.after} (${Math.round((o.bytesPerTile.after / o.bytesPerTile.before - 1) * 100)} %) | smaller |`,
    );
    const smaller = r.overhead.slice(0, i).find((p) => p.raster === o.raster && p.tiles < o.tiles);
    if (smaller) rows.push(crossoverRow(smaller, o, w));
  }
  const c = r.counted;
  const cost = r.cost;
  if (c && cost) {
    const per = (keys: (k: string) => boolean) =>
      (Object.entries(c.requests).reduce((n, [k, v]) => n + (keys(k) ? v : 0), 0) / c.tiles).toFixed(2);
    rows.push(
      `| AWS requests per sub-tile (a run of ${c.tiles} sub-tiles in ${Math.ceil(c.tiles / 16)}+ metatiles, every request counted; AWS's cadence: progress checked every 10 s, 20 s long polls) | SQS ${per((k) => k.startsWith('SQS.'))}, DynamoDB writes ${per((k) => DYNAMO_WRITES.includes(k))} (${cost.perSubTile.dynamoWriteUnits.toFixed(1)} WRU) + ${cost.perSubTile.dynamoReadUnits.toFixed(1)} RRU, S3 ${cost.perSubTile.s3Puts.toFixed(2)} PUT + ${cost.perSubTile.s3Gets.toFixed(1)} GET, ${cost.perSubTile.transitions.toFixed(2)} transitions | SQS ≤ 0.1, DynamoDB writes ≤ 0.2, 1 PUT |`,
      `| CPU the local AWS stand-ins used during that run (a remote service on AWS) | ${c.cpu.stack} CPU-s; the worker processes ${c.cpu.workers} CPU-s, of ${(c.runSeconds * m.cpus).toFixed(0)} CPU-s available | |`,
    );
  }
  if (r.split)
    rows.push(
      `| split + enqueue of ${r.split.subTiles.toLocaleString('en-US')} sub-tiles | split ${showSpread(r.split.splitMs, 'ms')}, enqueue ${showSpread(r.split.enqueueMs, 'ms')} (longest call ${r.split.longestCallMs} ms); peak RSS ${r.split.peakRssMiB.split} MiB (split), ${r.split.peakRssMiB.enqueue} MiB (enqueue) | within Lambda limits |`,
    );
  const f = r.finalized;
  if (f)
    rows.push(
      `| finalize of ${f.subTiles.toLocaleString('en-US')} sub-tiles (Lambda: ${f.finalize.lambda.memoryMiB} MB, ${f.finalize.lambda.timeoutSeconds} s) | ${(f.finalize.ms / 1000).toFixed(0)} s (markers read from DynamoDB Local ${(f.finalize.phases['markers read'].ms / 1000).toFixed(0)} s), peak RSS ${f.finalize.peakRssMiB} MiB; gdalinfo opens the ${f.mosaic.blocks}-block mosaic in ${f.mosaic.gdalinfoMs} ms | within the finalize Lambda's limits; seconds |`,
    );
  const s = r.resume?.sigterm;
  const sigtermRuns = (runs: readonly SigtermRun[]) =>
    runs
      .map((x) => `${x.inFlightTiles} in flight (${x.inFlightMetatiles} metatiles) → ${x.redone} redone`)
      .join('; ');
  if (s)
    rows.push(
      `| SIGTERM to a worker while its tool runs (${s.tiles} sub-tiles; in flight: the sub-tiles of the metatiles it held, in its tool or uploading), production grace (120 s) | ${sigtermRuns(s.graceful)} | redone ≤ in flight |`,
      `| same, no grace left (in-flight work cancelled and given back) | ${sigtermRuns(s.abrupt)} | redone ≤ in flight |`,
    );
  const rerun = r.resume?.rerun;
  if (rerun)
    rows.push(
      `| re-run of a completed ${rerun.tiles}-sub-tile run made by real warps (${rerun.messages} messages sent again) | every message handled in ${showSpread(rerun.rerun)}, queue empty in ${showSpread(rerun.queueEmpty)}; ${rerun.toolInvocations} tool runs | ≤ 3 s, no tool run |`,
    );
  if (r.cancel)
    rows.push(
      `| cancel through a worker → group dead / .part gone / claim released, cooperative tool (via execution stop) | ${cancelCell(r.cancel.cooperative)} | within the run-status poll + grace |`,
      `| same, a tool that ignores SIGTERM (kill grace ${r.cancel.stubborn.graceMs / 1000} s; it had written its .part in ${r.cancel.stubborn.partsWritten} of ${r.runs} runs) | ${cancelCell(r.cancel.stubborn)} | ≈ the kill grace |`,
    );
  const b = r.bundle;
  // A difference within the noise of a cold start may come out below zero.
  const signed = (n: number) => (n < 0 ? `−${-n}` : `+${n}`);
  const mbOf = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  if (b)
    rows.push(
      `| split Lambda bundle with the EPSG registry (from PROJ's database), and its cold start (import + first CRS lookup, median of ${b.samples}) | ${mbOf(b.withRegistry.bundleBytes)} (${mbOf(b.withRegistry.bundleDeflatedBytes)} deflated) against ${mbOf(b.withoutRegistry.bundleBytes)} without it; ${signed(Math.round(b.withRegistry.importCpuMsMedian - b.withoutRegistry.importCpuMsMedian))} ms CPU, +${Math.round(b.withRegistry.rssMiBMedian - b.withoutRegistry.rssMiBMedian)} MiB at init, ${Math.round(b.withRegistry.firstLookupMsMedian)} ms for the first lookup (unpacking the registry); ${b.withinLambdaLimits ? 'within' : '**over**'} Lambda's limits | 50 MB zipped, 250 MB unzipped |`,
    );
  if (cost)
    rows.push(
      `| request cost per 1,000 sub-tiles | $${cost.usdPer1000.total.toFixed(4)} (SQS $${cost.usdPer1000.sqs.toFixed(4)}, DynamoDB $${cost.usdPer1000.dynamodb.toFixed(4)}, S3 $${cost.usdPer1000.s3.toFixed(4)}, Step Functions $${cost.usdPer1000.stepFunctions.toFixed(4)}) | |`,
    );
  return rows.join('\n');
}
