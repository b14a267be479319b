#!/usr/bin/env node
// The worker as one self-contained bundle: what the worker image ships instead of node_modules
// (docs/deploy.md). Two entry points, each bundled whole: the worker itself and the point
// extractor it runs as a child process (resolved next to the bundle at run time), plus the one
// file a bundle cannot hold: laz-perf's WASM, which its Emscripten glue reads from __dirname.
//
//   node scripts/bundle-worker.mjs [--outdir dist/worker-bundle]
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

// ESM output, but bundled CommonJS packages call require() and read __dirname: give them both.
const banner = [
  "import { createRequire as __geohubCreateRequire } from 'node:module';",
  "import { fileURLToPath as __geohubFileURLToPath } from 'node:url';",
  "import { dirname as __geohubDirname } from 'node:path';",
  'const require = __geohubCreateRequire(import.meta.url);',
  'const __filename = __geohubFileURLToPath(import.meta.url);',
  'const __dirname = __geohubDirname(__filename);',
].join(' ');

/** How every bundle of ours is made: one ES module per entry, for Node, everything inside. */
export const bundleOptions = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  format: 'esm',
  // A package's ES module build before its CommonJS one (esbuild takes `main` first for Node):
  // the AWS SDK's CommonJS builds come wrapped, their exports copied getter by getter at load,
  // and cannot be tree-shaken. A cold 20-tile run, 6 alternated pairs: 3.61 s and 6.2 CPU-s
  // against 3.90 s and 6.8; the worker's bundle 1.8 MB, loaded in 245 ms, against 2.1 MB in 298.
  mainFields: ['module', 'main'],
  // The image runs Node 22; the dev machines' Node 20 runs the same bundle in the tests.
  target: 'node20',
  minify: true,
  keepNames: true,
  sourcemap: 'linked',
  sourcesContent: false,
  banner: { js: banner },
  logLevel: 'warning',
  metafile: true,
};

export async function bundleWorker(outdir) {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    ...bundleOptions,
    entryPoints: {
      main: 'worker/main.ts',
      'extract-tile-points-main': 'lib/pointcloud/extract-tile-points-main.ts',
    },
    outdir,
  });
  // laz-perf's glue loads its WASM from the directory of the script that holds it: the bundle's.
  copyFileSync(require.resolve('laz-perf/lib/node/laz-perf.wasm'), join(outdir, 'laz-perf.wasm'));
  // The metatile engine's script, where worker/metatile-command.ts looks for it: under the
  // project root, which is the bundle's directory (it holds the package.json written below).
  mkdirSync(join(outdir, 'worker', 'tools'), { recursive: true });
  copyFileSync(
    join(root, 'worker', 'tools', 'warp-metatile.py'),
    join(outdir, 'worker', 'tools', 'warp-metatile.py'),
  );
  // The bundles are ES modules with a .js extension (the extractor is found by that name).
  writeFileSync(join(outdir, 'package.json'), `${JSON.stringify({ type: 'module', private: true })}\n`);
  return result;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--outdir');
  const outdir = resolve(at > 0 ? process.argv[at + 1] : join(root, 'dist', 'worker-bundle'));
  const started = Date.now();
  const result = await bundleWorker(outdir);
  const bytes = Object.values(result.metafile.outputs).reduce((sum, o) => sum + o.bytes, 0);
  console.error(`worker bundle: ${outdir} (${(bytes / 1e6).toFixed(1)} MB) in ${Date.now() - started} ms`);
}
