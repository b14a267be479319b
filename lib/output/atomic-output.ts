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
  await mkdir(dirname(finalPath), { recursive: true });
  const partPath = join(
    dirname(finalPath),
    `${basename(finalPath)}.${randomBytes(4).toString('hex')}${PART_SUFFIX}`,
  );
  let keep = false;
  try {
    const result = await fn(partPath);
    await rename(partPath, finalPath); // the commit point
    return result;
  } catch (error) {
    keep = error instanceof ProcessGroupSurvivedError;
    throw error;
  } finally {
    if (!keep) await rm(partPath, { force: true });
  }
}
