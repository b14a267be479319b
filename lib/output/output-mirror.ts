import { createHash, randomBytes } from 'node:crypto';
import { linkSync, readFileSync, rmSync } from 'node:fs';
import { copyFile, link, lstat, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A local run's output mirror (docs/architecture.md#output-mirror): a directory where the workers
 * of `geohub run` leave a copy of each tile once its object is durable, so that the CLI copies
 * the run's outputs into --out without downloading again what was made on this machine. The
 * bucket stays the truth: a mirrored file is used only when it is the object (its MD5 is the
 * object's ETag); anything else is downloaded.
 */
export function mirrorPath(dir: string, key: string): string {
  return join(dir, encodeURIComponent(key));
}

/**
 * Where a run's tiles are mirrored. A `geohub run`'s own stack mirrors every run into `root`. A
 * `geohub up` serves many runs, most of which no CLI copies (the page's, `submit`'s): there
 * `perRun` is set, and a run is mirrored only into the directory `root/<runId>` that its
 * `geohub run` asked the up to make; none, no mirror.
 */
export async function runMirror(
  root: string | undefined,
  runId: string,
  perRun: boolean,
): Promise<string | undefined> {
  if (!root || !perRun) return root;
  const dir = join(root, runId);
  const made = await lstat(dir).catch(() => undefined);
  return made?.isDirectory() ? dir : undefined;
}

/**
 * Leaves `file` (an uploaded tile) in the mirror under `key`: a hard link where the filesystem
 * allows, else a copy; always complete under its name. A link is made under the name itself (a
 * link names a whole file at once); a copy, or a name already taken by an earlier attempt, is
 * written aside, then renamed. A mirror is only a shortcut: failing to write one is not an error
 * of the tile.
 */
export async function mirrorOutput(dir: string | undefined, key: string, file: string): Promise<void> {
  if (!dir) return;
  const target = mirrorPath(dir, key);
  // One system call a tile in the common case, where a link aside and its rename were two.
  const linked = await link(file, target).then(
    () => true,
    () => false,
  );
  if (linked) return;
  const aside = `${target}.${randomBytes(6).toString('hex')}`;
  try {
    await link(file, aside).catch(() => copyFile(file, aside));
    await rename(aside, target);
  } catch {
    await rm(aside, { force: true }).catch(() => {});
  }
}

/**
 * The mirrored bytes of the object `key` if they are the object: same size, and an MD5 equal to
 * its ETag (a single-part upload's ETag is its MD5; a multipart one's, with its `-n`, never
 * matches). Undefined when there is no such file or it is not the object.
 */
export async function mirroredObject(
  dir: string | undefined,
  key: string,
  object: { readonly bytes: number; readonly etag: string },
): Promise<Buffer | undefined> {
  if (!dir) return undefined;
  const bytes = await readFile(mirrorPath(dir, key)).catch(() => undefined);
  return bytes && isObject(bytes, object) ? bytes : undefined;
}

const isObject = (bytes: Buffer, object: { readonly bytes: number; readonly etag: string }) =>
  bytes.length === object.bytes &&
  createHash('md5').update(bytes).digest('hex') === object.etag.replaceAll('"', '');

/**
 * Gives `target` (a new name, on the mirror's filesystem) the mirrored file of `key` when it is
 * the object, as a hard link: no bytes written and no new file made — on ext4, making a file
 * costs more than writing a tile's bytes (it looks past every inode freed in the last 30 s).
 * The check reads the linked name itself, so a mirror rewritten meanwhile cannot slip in
 * unchecked. False, and no `target` left, when there is no such file, it is not the object, or
 * the filesystems differ.
 *
 * Synchronous: it serves the CLI's copy into --out, where nothing else waits on the event loop.
 * Each call through libuv's thread pool costs two thread hand-offs, more than the call itself on
 * a local disk (the copy of 700 tiles' link, read and rename: 0.30 CPU-s so, 0.45–0.65 through
 * the pool).
 */
export function linkMirroredObject(
  dir: string | undefined,
  key: string,
  object: { readonly bytes: number; readonly etag: string },
  target: string,
): boolean {
  if (!dir) return false;
  try {
    linkSync(mirrorPath(dir, key), target);
  } catch {
    return false;
  }
  let bytes: Buffer | undefined;
  try {
    bytes = readFileSync(target);
  } catch {
    bytes = undefined;
  }
  if (bytes && isObject(bytes, object)) return true;
  rmSync(target, { force: true });
  return false;
}
