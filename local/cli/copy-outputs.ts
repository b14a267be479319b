import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, lstatSync, mkdirSync, renameSync } from 'node:fs';
import { lstat, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import PQueue from 'p-queue';
import { localTileHrefs, RUN_OUTPUTS } from '../../lib/coordination/run-outputs.js';
import { markPhase } from '../../lib/log/phase-marks.js';
import { runPrefix, tilesPrefix } from '../../lib/model/ids.js';
import { linkMirroredObject, mirroredObject } from '../../lib/output/output-mirror.js';
import type { ObjectStore } from '../../lib/store/object-store.js';
import { CliError } from './cli-error.js';
import { OUTPUT_MARKER, STAGING_PREFIX } from './output-dir.js';

/**
 * Creates `dir` below `root` one component at a time, refusing any symbolic link on the way.
 * Synchronous, as the mirror's link (lib/output/output-mirror.ts): a few calls a tile on a local
 * disk, cheaper than their hand-offs to libuv's thread pool.
 */
function realDirectory(root: string, dir: string): void {
  let current = root;
  for (const part of relative(root, dir).split(sep).filter(Boolean)) {
    current = join(current, part);
    let s = lstatSync(current, { throwIfNoEntry: false });
    if (!s) {
      // Another download may create it between the lstat and the mkdir: then look again.
      try {
        mkdirSync(current);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      s = lstatSync(current);
    }
    if (s.isSymbolicLink() || !s.isDirectory()) {
      throw new CliError(`refusing to write through ${current}: it is not a plain directory`);
    }
  }
}

/**
 * Downloads in flight at once. Each one is mostly the SDK's and the local S3's per-request CPU,
 * not bytes: one after the other, 1,056 tiles took 3.7–7.4 s on the bench machine, eight at a
 * time 2.2–2.5 s; more did not help.
 */
const COPY_CONCURRENCY = 8;

/**
 * Copies a run's outputs from the bucket into `dir`: its tiles as `z/x/y.tif` (from `mirror`
 * where it holds the very object, lib/output/output-mirror.ts), and beside
 * them its metadata (mosaic.vrt and its block VRTs, collection.json and its item parts,
 * summary.json), which the bucket keeps apart under `runs/<run>/`; the metadata's relative
 * hrefs to the tiles are rewritten for this layout, a line at a time (no href spans lines).
 * Each object is downloaded into a fresh staging directory, then renamed into place: a
 * rename replaces a symbolic link rather than following it, and no directory on the way may
 * be a link, so no write ever lands outside `dir`.
 */
export async function copyRunOutputs(
  store: ObjectStore,
  runId: string,
  dir: string,
  options: {
    readonly mirror?: string;
    /** A tile already in `dir` with the object's size and MD5 (its single-part ETag) is kept. */
    readonly resume?: boolean;
    /**
     * When the run's other outputs are written: the tiles are copied at once (every sub-tile of
     * the run is done), the rest once this settles, so the tiles' copy overlaps the finalize
     * (early-tile-copy.ts). A rejection copies no outputs and is the copy's error.
     */
    readonly outputsReady?: Promise<unknown>;
  } = {},
): Promise<number> {
  // Awaited only once the tiles are under way: its rejection is handled from now on.
  options.outputsReady?.catch(() => {});
  const root = resolve(dir);
  // O_EXCL after removing: never through a link someone left in the marker's place.
  await rm(join(root, OUTPUT_MARKER), { force: true });
  await writeFile(join(root, OUTPUT_MARKER), `${JSON.stringify({ runId })}\n`, { flag: 'wx' });
  const staging = await mkdtemp(join(root, STAGING_PREFIX));
  markPhase('cli: tiles copy started');
  let copied = 0;
  let staged = 0;
  const fetchTile = async (key: string, staged: string, object: { bytes: number; etag: string }) => {
    // The workers' own copy when it is the object (a local run's mirror): linked where --out
    // shares its filesystem, else copied; a download otherwise.
    if (linkMirroredObject(options.mirror, key, object, staged)) return;
    const mirrored = await mirroredObject(options.mirror, key, object);
    if (mirrored) await writeFile(staged, mirrored, { flag: 'wx' });
    else await store.download(key, staged);
  };
  const copy = async (
    prefix: string,
    fetch: (key: string, staged: string, object: { bytes: number; etag: string }) => Promise<void>,
    wanted: (name: string) => boolean = () => true,
  ) => {
    // A few downloads at a time, and never more listed than twice that waiting: memory stays
    // bounded however many tiles the run made. The first failure stops the copy.
    const queue = new PQueue({ concurrency: COPY_CONCURRENCY });
    let failure: { error: unknown } | undefined;
    try {
      for await (const object of store.list(prefix)) {
        if (failure) break;
        if (!wanted(object.key.slice(prefix.length))) continue;
        const target = resolve(join(root, object.key.slice(prefix.length)));
        if (!target.startsWith(root + sep))
          throw new CliError(`refusing to write outside ${root}: ${object.key}`);
        if (options.resume && fetch === fetchTile && (await sameObject(target, object))) continue;
        const path = join(staging, String(staged++));
        queue
          .add(async () => {
            if (failure) return;
            await fetch(object.key, path, object);
            realDirectory(root, resolve(target, '..'));
            renameSync(path, target);
            copied += 1;
          })
          .catch((error: unknown) => {
            failure ??= { error };
          });
        await queue.onSizeLessThan(COPY_CONCURRENCY * 2);
      }
    } finally {
      // Nothing may still write into the staging directory when it is removed.
      await queue.onIdle();
    }
    if (failure) throw failure.error;
  };
  try {
    const outputs = runPrefix(runId);
    // Tiles and outputs side by side (neither reads the other); both settle before the staging
    // directory goes, whatever fails.
    const copies = await Promise.allSettled([
      copy(tilesPrefix(runId), fetchTile).then(() => markPhase('cli: tiles copied')),
      (async () => {
        await options.outputsReady;
        await copy(
          outputs,
          async (key, staged) => {
            // An archive is bytes, copied as they are; every other output is text whose hrefs move.
            if (key.endsWith(RUN_OUTPUTS.pmtiles)) return void (await store.download(key, staged));
            const { from, to } = localTileHrefs(runId, key.slice(outputs.length).split('/').length - 1);
            await pipeline(await store.getStream(key), rewriteLines(from, to), createWriteStream(staged));
          },
          isUserOutput,
        );
      })(),
    ]);
    const failed = copies.find((c): c is PromiseRejectedResult => c.status === 'rejected');
    if (failed) throw failed.reason;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return copied;
}

/**
 * A file that is already the object: a plain file (not a link) of its size whose MD5 is its
 * ETag. A multipart ETag (`…-N`) is no MD5: such a file is fetched again.
 */
async function sameObject(path: string, object: { bytes: number; etag: string }): Promise<boolean> {
  const s = await lstat(path).catch(() => undefined);
  const etag = object.etag.replace(/"/g, '');
  if (!s?.isFile() || s.size !== object.bytes || !/^[0-9a-f]{32}$/.test(etag)) return false;
  const hash = createHash('md5');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex') === etag;
}

/** The run's manifest (the split's work list) is the hub's bookkeeping, not an output for the user. */
const isUserOutput = (name: string) => !name.startsWith('manifest');

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
