import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { MAX_MEMBERS } from '../../lib/collection/collection-manifest.js';
import { CliError } from './cli-error.js';
import { checkInputFile, type InputFile } from './input-file.js';

/** What `geohub run` and `geohub plan` were given: one file, or a collection of them. */
export type JobInputs =
  | { readonly kind: 'file'; readonly file: InputFile }
  | {
      readonly kind: 'collection';
      /** The name the user gave (the directory, the list file, or the first file): the run's name. */
      readonly name: string;
      readonly members: readonly InputFile[];
      /** Where a `<name>.job.json` sidecar is looked for. */
      readonly sidecarBase: string;
    };

/** Files a directory contributes: what geohub reads (GeoTIFF, LAS/LAZ, COPC), nothing else. */
const SOURCE_FILE = /\.(tiff?|las|laz)$/i;
/** A list of paths, one per line (blank lines and `#` comments skipped). */
const LIST_FILE = /\.(txt|list|lst)$/i;

async function listed(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8');
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  for (const line of lines) {
    if (/^s3:\/\//i.test(line))
      throw new CliError(
        `${path} lists ${line}: an S3 object is read by a deployed stack, not by a local run`,
      );
  }
  // Relative paths are relative to the list, as a VRT's are.
  return lines.map((l) => resolve(dirname(path), l));
}

async function sourcesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && SOURCE_FILE.test(e.name) && !e.name.endsWith('.job.json'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/**
 * Resolves `geohub run`'s inputs: one file is a run of that file; several files, a directory
 * (its GeoTIFF and LAS/LAZ files, sorted by path) or a list file (`.txt`: one path per line) is
 * a collection, planned and tiled as one source. Every member is checked before anything starts.
 * In a collection, a later member wins where two overlap (gdalbuildvrt's rule).
 */
export async function resolveJobInputs(given: readonly string[]): Promise<JobInputs> {
  const [first] = given;
  if (first === undefined) throw new CliError('no input given');
  const firstStat = given.length === 1 ? await stat(first).catch(() => undefined) : undefined;
  if (given.length === 1 && !firstStat?.isDirectory() && !LIST_FILE.test(first))
    return { kind: 'file', file: await checkInputFile(first) };
  let paths: string[];
  let name = first;
  if (given.length > 1) {
    paths = given.map((g) => resolve(g));
    name = dirname(resolve(first));
  } else if (firstStat?.isDirectory()) {
    paths = await sourcesIn(first);
    if (paths.length === 0) throw new CliError(`${first} holds no GeoTIFF or LAS/LAZ file`);
  } else {
    await checkInputFile(first);
    paths = await listed(first);
    if (paths.length === 0) throw new CliError(`${first} lists no file`);
  }
  if (paths.length > MAX_MEMBERS)
    throw new CliError(`${paths.length} files: a collection holds at most ${MAX_MEMBERS}`);
  // Members keep their file names in the bucket: two of one name would overwrite each other.
  const seen = new Map<string, string>();
  for (const path of paths) {
    const other = seen.get(basename(path));
    if (other)
      throw new CliError(
        `${other} and ${path} have the same file name; a collection's members need distinct names`,
      );
    seen.set(basename(path), path);
  }
  const members: InputFile[] = [];
  for (const path of paths) members.push(await checkInputFile(path));
  const base = resolve(name).replace(/\/+$/, '');
  return { kind: 'collection', name: basename(base), members, sidecarBase: base.replace(LIST_FILE, '') };
}
