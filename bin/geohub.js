#!/usr/bin/env node
// The published entry point: runs the compiled CLI (npm run build) and exits with its code.
import { existsSync } from 'node:fs';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const entry = new URL('../dist/local/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('geohub is not built yet: run `npm run setup` (or `npm ci && npm run build`) first\n');
  process.exit(1);
}
// --verbose prints stack traces: name the TypeScript sources' lines in them, not the bundle's.
if (process.argv.includes('--verbose')) process.setSourceMapsEnabled(true);
// The build's bundle of the same CLI when it is up to date (scripts/bundle-local.mjs): one file
// to load instead of some 900 modules.
const { bundledEntry } = await import(new URL('../dist/local/bundled-entry.js', import.meta.url).href);
const cli = bundledEntry(entry, new URL('../dist/cli-bundle/main.js', import.meta.url));
const { main, installCrashGuards } = await import(cli.href);
installCrashGuards();
process.exitCode = await main(process.argv.slice(2));
