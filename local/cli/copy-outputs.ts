import { mkdir } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { ObjectStore } from '../../lib/store/object-store.js';

/**
 * Copies a run's outputs from the bucket into `dir`, keeping the layout of S3
 * (`z/x/y.tif`, mosaic.vrt, collection.json, items.json, summary.json). Keys are ours, but
 * each target is still checked to stay inside `dir`.
 */
export async function copyRunOutputs(store: ObjectStore, runId: string, dir: string): Promise<number> {
  const prefix = `tiles/${runId}/`;
  const root = resolve(dir);
  let copied = 0;
  for await (const object of store.list(prefix)) {
    const target = resolve(join(root, object.key.slice(prefix.length)));
    if (relative(root, target).startsWith('..') || !target.startsWith(root + sep)) {
      throw new Error(`refusing to write outside ${root}: ${object.key}`);
    }
    await mkdir(dirname(target), { recursive: true });
    await store.download(object.key, target);
    copied += 1;
  }
  return copied;
}
