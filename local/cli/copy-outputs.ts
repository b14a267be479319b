import { lstat, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import type { ObjectStore } from '../../lib/store/object-store.js';
import { CliError } from './cli-error.js';
import { OUTPUT_MARKER } from './output-dir.js';

/** Creates `dir` below `root` one component at a time, refusing any symbolic link on the way. */
async function realDirectory(root: string, dir: string): Promise<void> {
  let current = root;
  for (const part of relative(root, dir).split(sep).filter(Boolean)) {
    current = join(current, part);
    const s = await lstat(current).catch(() => undefined);
    if (!s) await mkdir(current);
    else if (s.isSymbolicLink() || !s.isDirectory()) {
      throw new CliError(`refusing to write through ${current}: it is not a plain directory`);
    }
  }
}

/**
 * Copies a run's outputs from the bucket into `dir`, keeping the layout of S3
 * (`z/x/y.tif`, mosaic.vrt, collection.json, items.json, summary.json). Each object is
 * downloaded into a fresh staging directory, then renamed into place: a rename replaces a
 * symbolic link rather than following it, and no directory on the way may be a link, so no
 * write ever lands outside `dir`.
 */
export async function copyRunOutputs(store: ObjectStore, runId: string, dir: string): Promise<number> {
  const prefix = `tiles/${runId}/`;
  const root = resolve(dir);
  // O_EXCL after removing: never through a link someone left in the marker's place.
  await rm(join(root, OUTPUT_MARKER), { force: true });
  await writeFile(join(root, OUTPUT_MARKER), `${JSON.stringify({ runId })}\n`, { flag: 'wx' });
  const staging = await mkdtemp(join(root, '.geohub-staging-'));
  let copied = 0;
  try {
    for await (const object of store.list(prefix)) {
      const target = resolve(join(root, object.key.slice(prefix.length)));
      if (!target.startsWith(root + sep))
        throw new CliError(`refusing to write outside ${root}: ${object.key}`);
      const staged = join(staging, String(copied));
      await store.download(object.key, staged);
      await realDirectory(root, resolve(target, '..'));
      await rename(staged, target);
      copied += 1;
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return copied;
}
