import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ProcessGroupSurvivedError } from '../process/errors.js';

export const PART_SUFFIX = '.part';

/**
 * Gives `fn` a temporary path next to `finalPath` (same directory, so the same filesystem)
 * and promotes it by an atomic rename only if `fn` succeeds. Whatever happens — success,
 * failure, cancellation — no `.part` survives. `fn` must only settle once nothing writes
 * to the path any more (runProcess guarantees that for the tool's process group). The one
 * exception: a process group that survived SIGKILL may still write, so its `.part` stays
 * for the start-up self-check to find (docs/architecture.md, "Cancellation").
 */
export async function withAtomicOutput<T>(
  finalPath: string,
  fn: (partPath: string) => Promise<T>,
): Promise<T> {
  return withAtomicOutputs([finalPath], ([partPath]) => fn(partPath!));
}

/**
 * The same for several outputs written by one tool run (a metatile's tiles): each gets its
 * `.part` path; only if `fn` succeeds is each promoted by its own atomic rename. No `.part`
 * survives, whatever happens.
 */
export async function withAtomicOutputs<T>(
  finalPaths: readonly string[],
  fn: (partPaths: readonly string[]) => Promise<T>,
): Promise<T> {
  await Promise.all(
    [...new Set(finalPaths.map((p) => dirname(p)))].map((d) => mkdir(d, { recursive: true })),
  );
  const partPaths = finalPaths.map((finalPath) =>
    join(dirname(finalPath), `${basename(finalPath)}.${randomBytes(4).toString('hex')}${PART_SUFFIX}`),
  );
  let keep = false;
  try {
    const result = await fn(partPaths);
    for (const [i, partPath] of partPaths.entries()) await rename(partPath, finalPaths[i]!); // commit points
    return result;
  } catch (error) {
    keep = error instanceof ProcessGroupSurvivedError;
    throw error;
  } finally {
    if (!keep) await Promise.all(partPaths.map((p) => rm(p, { force: true })));
  }
}
