import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StackStartError } from './stack/errors.js';

/**
 * The repository root, found by walking up to package.json, so that the same module works
 * from its TypeScript source (tests) and from the build in dist/ (CLI, workers).
 */
export function projectRoot(from: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(from));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new StackStartError(`no package.json above ${fileURLToPath(from)}`);
    dir = parent;
  }
  return dir;
}
