/**
 * `npm run bench`: every benchmark in one run, figures printed with the commit and machine they
 * ran on, saved as they come in .bench/results.json, and at the end written whole into
 * docs/benchmarks.md with the raw results beside it (docs/benchmarks.json, to commit).
 *
 * Options: `--quick` (small inputs, one run each: the CI check that the bench produces its
 * figures; docs/ is left alone), `--runs <n>` (timed runs per figure, default 3),
 * `--results <file>`, `--only <sections>` (a comma list of overhead, startup, sigterm, rerun, cancel,
 * counted, split, finalize, bundle, pdal, pyramid: re-measures those rows alone and merges them into
 * docs/benchmarks.json; every other row keeps the commit and date it was measured on, and the
 * table says so).
 * The run fails when the split Lambda's bundle is over Lambda's limits.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../local/project-root.js';
import { loadWorkerConfig } from '../worker/config.js';
import { RESULTS, writeBenchmarkDocs } from './benchmarks-doc.js';
import { benchCancelCooperative, benchCancelStubborn } from './cancel.js';
import { countedRun } from './counted.js';
import { benchGrace } from './grace.js';
import { benchOverhead } from './overhead.js';
import { benchPdalEngines } from './pdal-engines.js';
import { benchPyramid } from './pyramid.js';
import { benchRerunCompleted, benchSigtermResume, type RerunFigures, type SigtermResume } from './resume.js';
import { benchDir, benchRasters } from './sources.js';
import type { SplitBundleResult } from './split-bundle.js';
import { benchStartupProfile } from './startup-profile.js';
import { parseBenchArgs } from './support/bench-args.js';
import { sampleSpeed } from './support/cpu-speed.js';
import { sampleLoad } from './support/load.js';
import { machine } from './support/machine.js';
import { pdalOnPath } from './support/pdal-on-path.js';
import { pricePer1000 } from './support/price.js';
import { gitState } from './support/provenance.js';
import { measuredBy, mergeSections, SECTIONS } from './support/sections.js';
import { spread } from './support/stats.js';
import { onSignalStop } from './support/stop-on-signal.js';
import { type BenchResults, benchTable } from './table.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const { quick, runs, results, only, want } = parseBenchArgs();
const root = projectRoot();
// The code measured: taken at the start (a commit made while the bench runs is not what it measured).
const code = gitState(root);
const resultsPath = results ?? join(root, '.bench/results.json');
// geohub run's default: one worker per core; the raw tools get the same number of processes.
const workers = availableParallelism();
const log = (s: string) => process.stderr.write(`bench: ${s}\n`);
const started = performance.now();
const load = sampleLoad();
const speed = sampleSpeed();
const dir = benchDir();
// Killed alone (no finally runs), the bench still takes its scratch directory with it.
onSignalStop(() => rmSync(dir, { recursive: true, force: true }));
/** A long bench on a busy machine: what is measured is kept as it comes (`partial: true`) and logged. */
function saveSoFar(figures: Record<string, unknown>) {
  // Between two measures: the machine's speed then.
  speed.sample();
  mkdirSync(dirname(resultsPath), { recursive: true });
  writeFileSync(
    resultsPath,
    `${JSON.stringify({ partial: true, at: new Date().toISOString(), machine: machine(), load: load.summary(), runs, workers, ...figures }, null, 2)}\n`,
  );
  log(`figures so far saved in ${resultsPath}`);
}
// Resolved here: the split bench runs in the scratch directory (its .bench output stays there).
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

try {
  const rasters = benchRasters(root, dir, quick);
  // Each figure is saved as soon as it is measured: the rows the issue judges first, then the rest.
  const figures: {
    overhead?: BenchResults['overhead'];
    startup?: BenchResults['startup'];
    resume: { sigterm?: SigtermResume; rerun?: RerunFigures };
    cancel?: BenchResults['cancel'];
    counted?: BenchResults['counted'];
    split?: BenchResults['split'];
    collection?: BenchResults['collection'];
    finalized?: BenchResults['finalized'];
    bundle?: BenchResults['bundle'];
    pdal?: BenchResults['pdal'];
    pyramid?: BenchResults['pyramid'];
  } = { resume: {} };
  const overhead = [];
  for (const raster of want('overhead') ? rasters : []) {
    log(`${raster.label}: geohub vs xargs -P ${workers} gdalwarp vs gdal2tiles.py, ${runs} runs each…`);
    overhead.push(await benchOverhead(raster, { workers, runs, dir }));
    saveSoFar({ ...figures, overhead });
  }
  figures.overhead = overhead;
  if (want('startup')) {
    log(`start-up profile of the ${rasters[0]!.label} job, cold and on a running up, ${runs} runs each…`);
    figures.startup = await benchStartupProfile(rasters[0]!, { workers, runs, dir });
    saveSoFar(figures);
  }
  if (want('pyramid')) {
    // The small job and the bench raster: a pyramid of a few dozen tiles and one of thousands.
    const pyramid = [];
    for (const raster of rasters.slice(0, 2)) {
      log(`${raster.label}: full pyramid, geohub run vs gdal2tiles.py's default job, ${runs} runs each…`);
      pyramid.push(await benchPyramid(raster, { workers, runs, dir }));
      figures.pyramid = pyramid;
      saveSoFar(figures);
    }
  }
  const resume = figures.resume;
  if (want('sigterm')) {
    log('resume after a SIGTERM with a tool in flight…');
    resume.sigterm = await benchSigtermResume(root, {
      workers,
      runs,
      zoom: quick ? 10 : 11,
      after: quick ? 0 : 1 / 3,
    });
    saveSoFar(figures);
  }
  if (want('rerun')) {
    log('re-run of a completed run made by real warps…');
    resume.rerun = await benchRerunCompleted(root, { workers, runs, zoom: quick ? 9 : 13 });
    saveSoFar(figures);
  }
  if (want('cancel')) {
    log('cancel latency through a worker: a cooperative tool, then one that ignores SIGTERM…');
    const cooperative = await benchCancelCooperative(runs);
    const stubborn = await benchCancelStubborn(root, dir, runs);
    log('the kill grace: SIGTERM → group gone, the engine reading over /vsis3/, then a local copy…');
    const grace = await benchGrace(runs, loadWorkerConfig({}).killGraceMs);
    figures.cancel = { cooperative, stubborn, grace };
    saveSoFar(figures);
  }
  let counted: Awaited<ReturnType<typeof countedRun>> | undefined;
  if (want('counted')) {
    log('AWS requests per sub-tile (one counted run)…');
    // A job of the bench raster's own size (256 sub-tiles in 16 metatiles), not the 20-tile one:
    // a run's fixed requests (split, enqueue, progress checks, finalize) spread over 20 sub-tiles
    // made the per-sub-tile figures a small job's, over the targets a real job meets.
    counted = await countedRun(rasters[quick ? 0 : 1]!, workers);
    figures.counted = counted;
    saveSoFar(figures);
  }
  if (want('split')) {
    log(`split and enqueue (${quick ? 'quick' : '1,000,000 sub-tiles'}), ${runs} runs…`);
    const splits = Array.from({ length: runs }, () =>
      JSON.parse(
        execFileSync(process.execPath, ['--import', tsxLoader, join(root, 'bench/split-million.ts')], {
          cwd: dir,
          env: { ...process.env, ...(quick ? { GEOHUB_BENCH_SPLIT_SIDE: '40' } : {}) },
          stdio: ['ignore', 'pipe', 'inherit'],
          encoding: 'utf8',
        }),
      ),
    );
    figures.split = {
      subTiles: splits[0].subTiles,
      splitMs: spread(splits.map((s) => s.split.ms)),
      enqueueMs: spread(splits.map((s) => s.enqueue.ms)),
      longestCallMs: Math.max(...splits.map((s) => s.enqueue.longestCallMs)),
      peakRssMiB: {
        split: Math.max(...splits.map((s) => s.split.peakRssMiB)),
        enqueue: Math.max(...splits.map((s) => s.enqueue.peakRssMiB)),
      },
    };
    saveSoFar(figures);
  }
  if (want('collection')) {
    const members = quick ? 400 : 10_000;
    log(`split of a ${members}-member collection, every request delayed 20 ms, ${runs} runs…`);
    const plans = Array.from(
      { length: runs },
      () =>
        JSON.parse(
          execFileSync(
            process.execPath,
            ['--import', tsxLoader, join(root, 'bench/collection-plan.ts'), String(members), '20', '16'],
            { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' },
          ),
        ) as Omit<BenchResults['collection'] & object, 'seconds'> & { seconds: number },
    );
    const [first] = plans;
    figures.collection = {
      ...first!,
      seconds: spread(plans.map((p) => p.seconds)),
      peakRssMiB: Math.max(...plans.map((p) => p.peakRssMiB)),
      rssGrowthMiB: Math.max(...plans.map((p) => p.rssGrowthMiB)),
    };
    saveSoFar(figures);
  }
  if (want('finalize')) {
    log(`finalize of ${quick ? '40×40' : '1,000×1,000'} sub-tiles (markers seeded through the ledger)…`);
    execFileSync(
      process.execPath,
      ['--import', tsxLoader, join(root, 'bench/finalize-million.ts'), quick ? '40' : '1000'],
      { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] },
    );
    figures.finalized = JSON.parse(readFileSync(join(root, '.bench/finalize-million.json'), 'utf8'));
  }
  if (want('bundle')) {
    log("the split Lambda's bundle with the EPSG registry: size and cold start…");
    // It exits 1 (and this bench with it) when the bundle is over Lambda's limits.
    const bundle = JSON.parse(
      execFileSync(process.execPath, ['--import', tsxLoader, join(root, 'bench/split-bundle.ts')], {
        cwd: root,
        env: { ...process.env, ...(quick ? { GEOHUB_BENCH_BUNDLE_SAMPLES: '1' } : {}) },
        stdio: ['ignore', 'pipe', 'inherit'],
        encoding: 'utf8',
      }),
    ) as SplitBundleResult;
    figures.bundle = bundle;
    saveSoFar(figures);
  }
  if (want('pdal')) {
    const pdal = pdalOnPath(root);
    if (!pdal)
      log('no pdal on PATH and no ../shared/tools/pdal-*.tar.xz: the point-cloud engines are not measured');
    else {
      log('the point-cloud engines, PDAL against the local engine, and the sizing at its worst…');
      try {
        figures.pdal = await benchPdalEngines(root, runs, quick);
        saveSoFar(figures);
      } finally {
        pdal.dispose();
      }
    }
  }

  const cost =
    counted &&
    pricePer1000(
      counted.requests,
      counted.s3HttpRequests,
      // The counted run's progress loop waits 10 s, as on AWS: its transitions are AWS's.
      counted.transitions,
      counted.tiles,
    );
  const at = new Date().toISOString();
  const results = {
    at,
    ...code,
    machine: machine(),
    load: load.summary(),
    speed: speed.summary(),
    quick,
    runs,
    workers,
    ...(only ? { only } : { totalSeconds: Math.round((performance.now() - started) / 1000) }),
    measured: measuredBy({ ...code, at, load: load.summary(), speed: speed.summary() }, only ?? SECTIONS),
    ...figures,
    overhead,
    cost,
  };
  mkdirSync(dirname(resultsPath), { recursive: true });
  writeFileSync(resultsPath, `${JSON.stringify(results, null, 2)}\n`);

  process.stdout.write(`${benchTable(results)}\n`);
  if (!quick) {
    // A partial re-measure keeps every other row of the committed results, with its provenance.
    const previous = join(root, RESULTS);
    const whole =
      only && existsSync(previous)
        ? mergeSections(JSON.parse(readFileSync(previous, 'utf8')) as BenchResults, results, only)
        : results;
    writeBenchmarkDocs(root, whole);
    log(`docs/benchmarks.md and ${RESULTS} written`);
  }
} finally {
  load.stop();
  rmSync(dir, { recursive: true, force: true });
}
