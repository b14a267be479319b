import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { localTileHrefs, runOutputPrefix } from '../../lib/coordination/run-outputs.js';
import type { ObjectStore } from '../../lib/store/object-store.js';

/**
 * Copies a run's outputs from the bucket into `dir`: its tiles as `z/x/y.tif`, and beside
 * them its metadata (mosaic.vrt and its block VRTs, collection.json and its item parts,
 * summary.json), which the bucket keeps apart under `runs/<run>/`. The metadata's relative
 * hrefs to the tiles are rewritten for this layout, a line at a time (one href never spans
 * lines). Keys are ours, but each target is still checked to stay inside `dir`.
 */
export async function copyRunOutputs(store: ObjectStore, runId: string, dir: string): Promise<number> {
  const root = resolve(dir);
  const target = async (key: string, prefix: string) => {
    const path = resolve(join(root, key.slice(prefix.length)));
    if (relative(root, path).startsWith('..') || !path.startsWith(root + sep)) {
      throw new Error(`refusing to write outside ${root}: ${key}`);
    }
    await mkdir(dirname(path), { recursive: true });
    return path;
  };
  let copied = 0;
  const tiles = `tiles/${runId}/`;
  for await (const object of store.list(tiles)) {
    await store.download(object.key, await target(object.key, tiles));
    copied += 1;
  }
  const outputs = runOutputPrefix(runId);
  for await (const object of store.list(outputs)) {
    const path = await target(object.key, outputs);
    const depth = object.key.slice(outputs.length).split('/').length - 1;
    const { from, to } = localTileHrefs(runId, depth);
    await pipeline(await store.getStream(object.key), rewriteLines(from, to), createWriteStream(path));
    copied += 1;
  }
  return copied;
}

function rewriteLines(from: string, to: string): Transform {
  let rest = '';
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const text = rest + chunk.toString('utf8');
      const end = text.lastIndexOf('\n') + 1;
      rest = text.slice(end);
      done(null, text.slice(0, end).replaceAll(from, to));
    },
    flush(done) {
      done(null, rest.replaceAll(from, to));
    },
  });
}
