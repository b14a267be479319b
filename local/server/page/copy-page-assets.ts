import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { assetSources } from './static-assets.js';

/**
 * Copies every page asset (own files and vendor files) to `target`, laid out by URL path: tsc
 * copies no static files, and a package with dist/ alone must serve the page. Run by the build.
 */
export function copyPageAssets(sourceDir: string, target: string): number {
  // A file removed from the sources must not live on in the build.
  rmSync(target, { recursive: true, force: true });
  let copied = 0;
  for (const [path, file] of assetSources(sourceDir)) {
    const to = join(target, path.slice(1));
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(file, to);
    copied += 1;
  }
  return copied;
}
