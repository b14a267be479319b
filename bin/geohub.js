#!/usr/bin/env node
// The published entry point: runs the compiled CLI (npm run build) and exits with its code.
import { existsSync } from 'node:fs';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const entry = new URL('../dist/local/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('geohub is not built yet: run `npm run setup` (or `npm ci && npm run build`) first\n');
  process.exit(1);
}
const { main, installCrashGuards } = await import(entry.href);
installCrashGuards();
process.exitCode = await main(process.argv.slice(2));
