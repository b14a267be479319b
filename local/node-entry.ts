import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

/**
 * The node arguments that run a sibling module as a process: the built .js as is, the
 * TypeScript source (under tests) through tsx's loader.
 */
export function nodeEntry(moduleUrl: URL): string[] {
  const path = fileURLToPath(moduleUrl);
  // tsx exports its ESM loader as the package's only entry.
  if (path.endsWith('.ts')) return ['--import', pathToFileURL(require.resolve('tsx')).href, path];
  return [path];
}

/** The URL of a sibling module, with the extension this module itself was loaded with. */
export function siblingModule(base: string, relative: string): URL {
  const ext = base.endsWith('.ts') ? '.ts' : '.js';
  return new URL(relative.replace(/\.js$/, ext), base);
}
