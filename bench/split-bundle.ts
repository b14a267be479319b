/**
 * The split Lambda with the EPSG registry inside: bundle size and cold-start time.
 *
 *   node --import tsx bench/split-bundle.ts     (npm run bench runs it as its `bundle` section)
 *
 * Bundles functions/split.ts (and resolveCrs, which it contains) with esbuild as serverless.yml's `custom.esbuild` does
 * (ESM, minified, node22, the AWS SDK inside), then starts a fresh Node process per sample that
 * imports the bundle (what Lambda's init phase does) and resolves EPSG:2154 once, which
 * looks it up in the registry; the same again with an empty registry isolates what the CRS data
 * costs. Prints the figures and saves .bench/split-bundle.json; exits 1 when the bundle is over
 * Lambda's limits. GEOHUB_BENCH_BUNDLE_SAMPLES sets the cold starts per bundle (default 5).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { build } from 'esbuild';
import { projectRoot } from '../local/project-root.js';
import { lambdaLimitsProblem } from './support/lambda-limits.js';

const SAMPLES = Number(process.env.GEOHUB_BENCH_BUNDLE_SAMPLES ?? 5);

const root = projectRoot();
const scratch = mkdtempSync(join(tmpdir(), 'geohub-bench-bundle-'));

/** The split handler plus resolveCrs (already inside it), bundled as serverless.yml bundles. */
async function bundle(outfile: string, withoutRegistry: boolean): Promise<void> {
  await build({
    stdin: {
      contents:
        "export { handler } from './functions/split.ts'; export { resolveCrs } from './lib/tiling/resolve-crs.ts';",
      resolveDir: root,
      loader: 'ts',
    },
    outfile,
    bundle: true,
    minify: true,
    keepNames: true,
    target: 'node22',
    platform: 'node',
    format: 'esm',
    banner: {
      js: "import { createRequire as __geohubCreateRequire } from 'node:module'; const require = __geohubCreateRequire(import.meta.url);",
    },
    logLevel: 'error',
    // The baseline: the same bundle with an empty registry, to isolate what the CRS data costs.
    plugins: withoutRegistry
      ? [
          {
            name: 'empty-registry',
            setup(b) {
              b.onResolve({ filter: /epsg-registry-packed\.js$/ }, () => ({
                path: 'empty',
                namespace: 'empty',
              }));
              b.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({
                contents: 'export const PACKED_EPSG_CHUNKS = []; export const EPSG_REGISTRY_ORIGIN = {};',
                loader: 'js',
              }));
            },
          },
        ]
      : [],
  });
}

export interface BundleFigures {
  readonly bundleBytes: number;
  readonly bundleDeflatedBytes: number;
  readonly importMsMedian: number;
  readonly importCpuMsMedian: number;
  readonly firstLookupMsMedian: number;
  readonly rssMiBMedian: number;
}

/** What this bench prints and saves (and npm run bench puts in its table). */
export interface SplitBundleResult {
  readonly at: string;
  readonly samples: number;
  readonly withRegistry: BundleFigures;
  readonly withoutRegistry: BundleFigures;
  readonly withinLambdaLimits: boolean;
}

/** Fresh processes that import the bundle (Lambda's init phase) and resolve EPSG:2154 once. */
function coldStarts(outfile: string): BundleFigures {
  const probe = `${outfile}.probe.mjs`;
  writeFileSync(
    probe,
    [
      'const c0 = process.cpuUsage(); const t0 = performance.now();',
      `const m = await import(${JSON.stringify(outfile)});`,
      'const t1 = performance.now(); const c1 = process.cpuUsage(c0);',
      'let lookupMs = null;',
      "try { const t2 = performance.now(); m.resolveCrs({ kind: 'epsg', code: 2154 }); lookupMs = performance.now() - t2; } catch {}",
      'console.log(JSON.stringify({ importMs: t1 - t0, importCpuMs: (c1.user + c1.system) / 1000, lookupMs, rssMiB: process.memoryUsage().rss / 2 ** 20 }));',
    ].join('\n'),
  );
  const samples: { importMs: number; importCpuMs: number; lookupMs: number | null; rssMiB: number }[] = [];
  for (let i = 0; i < SAMPLES; i += 1) {
    const out = execFileSync(process.execPath, [probe], {
      encoding: 'utf8',
      env: {
        ...process.env,
        AWS_REGION: 'us-east-1',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      },
    });
    samples.push(JSON.parse(out));
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return {
    bundleBytes: statSync(outfile).size,
    bundleDeflatedBytes: deflateRawSync(readFileSync(outfile), { level: 9 }).byteLength,
    importMsMedian: median(samples.map((s) => s.importMs)),
    importCpuMsMedian: median(samples.map((s) => s.importCpuMs)),
    firstLookupMsMedian: median(samples.map((s) => s.lookupMs ?? Number.NaN)),
    rssMiBMedian: median(samples.map((s) => s.rssMiB)),
  };
}

try {
  const full = join(scratch, 'split.mjs');
  const baseline = join(scratch, 'split-empty-registry.mjs');
  await bundle(full, false);
  await bundle(baseline, true);
  const withRegistry = coldStarts(full);
  const withoutRegistry = coldStarts(baseline);
  const problem = lambdaLimitsProblem(withRegistry);
  const result: SplitBundleResult = {
    at: new Date().toISOString(),
    samples: SAMPLES,
    withRegistry,
    withoutRegistry,
    withinLambdaLimits: problem === undefined,
  };
  mkdirSync(join(root, '.bench'), { recursive: true });
  writeFileSync(join(root, '.bench/split-bundle.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
  if (problem) {
    process.stderr.write(`split-bundle: ${problem}\n`);
    process.exitCode = 1;
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
