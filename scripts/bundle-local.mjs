#!/usr/bin/env node
// Part of `npm run build`: the code a local run starts many times over, each start as one bundle
// instead of some 900 modules (local/bundled-entry.ts): the worker (the image's own bundle) and
// the local Lambda containers' thread, its functions in chunks of their own so that a container
// still loads only its function's code, as its Lambda bundle holds only that.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bundleOptions, bundleWorker } from './bundle-worker.mjs';

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
console.log(`bundles: dist/worker-bundle, dist/lambda-bundle in ${Date.now() - started} ms`);
