#!/usr/bin/env node
// Part of `npm run build`: the code a local run starts many times over, each start as one bundle
// instead of some 900 modules (local/bundled-entry.ts): the worker (the image's own bundle) and
// the local Lambda containers' thread, its functions in chunks of their own so that a container
// still loads only its function's code, as its Lambda bundle holds only that. And the CLI and
// its emulators' processes, started once per `geohub run` but on its critical path: before the
// stand-ins start, the CLI would otherwise spend most of a CPU-second resolving, reading and
// lexing some 900 modules (CommonJS packages twice: once to find their exports).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bundleOptions, bundleWorker } from './bundle-worker.mjs';
import { moduleUrlPlugin } from './module-url-plugin.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const started = Date.now();
await bundleWorker(join(root, 'dist', 'worker-bundle'));
const lambdas = join(root, 'dist', 'lambda-bundle');
rmSync(lambdas, { recursive: true, force: true });
await build({
  ...bundleOptions,
  entryPoints: { 'lambda-thread-main': 'local/statemachine/lambda-thread-main.ts' },
  outdir: lambdas,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
});
const cli = join(root, 'dist', 'cli-bundle');
rmSync(cli, { recursive: true, force: true });
await build({
  ...bundleOptions,
  entryPoints: { main: 'local/cli/main.ts', 'emulator-main': 'local/stack/emulator-main.ts' },
  outdir: cli,
  // What the CLI imports lazily stays lazy (the split's CRS registry is never read by the CLI).
  // Chunks next to their entries: each module's dist URL is then one path from any of them.
  splitting: true,
  chunkNames: '[name]-[hash]',
  // The IAM evaluator's data package reads its JSON files relative to its own module URL: it
  // must stay in node_modules, where those files are, not inside a bundle (dist/ has no data/).
  external: ['@cloud-copilot/*'],
  plugins: [moduleUrlPlugin({ root, outfile: join(cli, 'main.js'), dist: join(root, 'dist') })],
});
console.log(`bundles: dist/worker-bundle, dist/lambda-bundle, dist/cli-bundle in ${Date.now() - started} ms`);
