import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { RUN_OUTPUTS } from '../../lib/coordination/run-outputs.js';
import { CliError } from './cli-error.js';

/** Written into `--out` by geohub: what tells a previous run's outputs from the user's files. */
export const OUTPUT_MARKER = '.geohub-output.json';
/** Where copy-outputs.ts stages each object before its rename into place. */
export const STAGING_PREFIX = '.geohub-staging-';
/** What a run writes into `--out` (besides `<z>/` directories of tiles). */
const OUTPUT_FILES = new Set([
  OUTPUT_MARKER,
  ...Object.values(RUN_OUTPUTS).map((name) => name.replace(/\/$/, '')),
]);
const isOutputEntry = (name: string) => OUTPUT_FILES.has(name) || /^[0-9]{1,2}$/.test(name);

export interface OutputDir {
  readonly path: string;
  /** It holds an interrupted copy of the same run (`geohub get`): kept, and completed. */
  readonly resumes?: boolean;
  /** Removes a previous run's outputs (only with --replace) so no stale tile stays. */
  clearPrevious(): Promise<void>;
}

/**
 * Checks `--out` before anything starts: not empty, not `/`, a directory (created if missing)
 * we can write to, and either empty or holding a previous geohub run's outputs that the user
 * asked to replace. Nothing of the user's is ever deleted: replace removes only what a run writes.
 */
export async function prepareOutputDir(
  given: string,
  replace: boolean,
  /** The run `geohub get` copies: a directory that holds part of its outputs is resumed. */
  resumeRun?: string,
): Promise<OutputDir> {
  if (given.trim() === '') throw new CliError('--out is empty: name the directory for the outputs');
  const path = resolve(given);
  if (path === '/') throw new CliError('--out is /: name a directory of its own for the outputs');
  const existing = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new CliError(`--out ${given}: ${error.code}`, 1, { cause: error });
  });
  if (existing && !existing.isDirectory()) {
    throw new CliError(`--out ${given} exists and is not a directory`);
  }
  if (!existing) {
    await mkdir(path, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
      throw new CliError(`--out ${given}: cannot create the directory (${error.code})`, 1, { cause: error });
    });
  }
  await probeWritable(path, given);
  const previous = await previousRun(path);
  if (resumeRun && previous === resumeRun) {
    // An interrupted copy's staging directories (copy-outputs.ts) are its own: gone before it resumes.
    for (const name of await readdir(path))
      if (name.startsWith(STAGING_PREFIX)) await rm(join(path, name), { recursive: true, force: true });
  }
  const entries = await readdir(path);
  if (entries.length > 0 && !(resumeRun && previous === resumeRun)) {
    if (!previous) {
      throw new CliError(
        `--out ${given} is not empty and holds no geohub outputs: choose an empty or new directory`,
      );
    }
    if (!replace) {
      throw new CliError(
        `--out ${given} holds the outputs of run ${previous}: pass --replace to replace them, or choose another directory`,
      );
    }
    const foreign = entries.filter((name) => !isOutputEntry(name));
    if (foreign.length > 0) {
      throw new CliError(
        `--out ${given} also holds files geohub did not write (${foreign.slice(0, 3).join(', ')}): choose another directory`,
      );
    }
  }
  return {
    path,
    ...(resumeRun && previous === resumeRun ? { resumes: true } : {}),
    async clearPrevious() {
      for (const name of await readdir(path)) {
        // rm of a symbolic link removes the link, never what it points to.
        if (isOutputEntry(name)) await rm(join(path, name), { recursive: true, force: true });
      }
    },
  };
}

async function previousRun(dir: string): Promise<string | undefined> {
  try {
    const marker = join(dir, OUTPUT_MARKER);
    if ((await lstat(marker)).isSymbolicLink()) return undefined;
    const value = JSON.parse(await readFile(marker, 'utf8')) as { runId?: unknown };
    return typeof value.runId === 'string' ? value.runId : 'unknown';
  } catch {
    return undefined;
  }
}

/** Root may write where the mode bits say no, so the check is a real write, not access(). */
async function probeWritable(dir: string, given: string): Promise<void> {
  const probe = join(dir, `.geohub-write-check-${randomBytes(6).toString('hex')}`);
  try {
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
    await (await open(probe, flags, 0o600)).close();
    await rm(probe, { force: true });
  } catch (error) {
    throw new CliError(
      `--out ${given} is not writable (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      1,
      { cause: error },
    );
  }
}
