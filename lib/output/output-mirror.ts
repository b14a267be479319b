import { createHash, randomBytes } from 'node:crypto';
import { copyFile, link, readFile, rename, rm } from 'node:fs/promises';
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
 * Leaves `file` (an uploaded tile) in the mirror under `key`: a hard link where the filesystem
 * allows, else a copy; always complete under its name (written aside, then renamed). A mirror
 * is only a shortcut: failing to write one is not an error of the tile.
 */
export async function mirrorOutput(dir: string | undefined, key: string, file: string): Promise<void> {
  if (!dir) return;
  const target = mirrorPath(dir, key);
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
  if (!bytes || bytes.length !== object.bytes) return undefined;
  const md5 = createHash('md5').update(bytes).digest('hex');
  return md5 === object.etag.replaceAll('"', '') ? bytes : undefined;
}
