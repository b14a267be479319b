import { processTable } from '../../lib/process/process-table.js';
import { findFiles } from './find-files.js';
import { waitUntil } from './wait-until.js';

/**
 * True once the metatile engine of group `pgid` is warping: it has taken its working name
 * (worker/tools/warp-metatile.py names itself only once GDAL is imported and a spec is read) and
 * at least `outputs` .part outputs exist under `scratch` (touched one by one, after the name and
 * before the warp starts). A fixed sleep said neither: on a loaded machine the interpreter was
 * still importing GDAL after 500 ms.
 */
export function warping(pgid: number, scratch: string, outputs = 1): boolean {
  const named = processTable().some(
    (p) => p.pgid === pgid && p.state !== 'Z' && p.command === 'gdal-metatile',
  );
  return named && findFiles(scratch, (n) => n.endsWith('.part')).length >= outputs;
}

/** Waits for `warping`; false if it is not seen in time. */
export function waitForWarp(pgid: number, scratch: string, timeoutMs = 60_000): Promise<boolean> {
  return waitUntil(() => warping(pgid, scratch), timeoutMs, 10);
}

/**
 * Waits until the engine is warping with all its `outputs` touched and leaves it stopped (SIGSTOP
 * to its group) there, so it is still mid-warp however long the caller takes: the caller
 * cancels, then `resume()`s it (the cancel's SIGTERM, sent while it was stopped, is delivered
 * then). A stop that lands between two of its touches is let go and tried again (once, in CI, it
 * held the engine with 2 of its 3). Throws if the group exited.
 */
export async function holdMidWarp(pgid: number, scratch: string, outputs = 1, timeoutMs = 60_000) {
  const resume = () => process.kill(-pgid, 'SIGCONT');
  const held = await waitUntil(
    () => {
      process.kill(-pgid, 'SIGSTOP');
      if (warping(pgid, scratch, outputs)) return true;
      resume();
      return false;
    },
    timeoutMs,
    10,
  );
  if (!held)
    throw new Error(`engine group ${pgid} was not seen warping with ${outputs} outputs in ${timeoutMs} ms`);
  return { resume };
}
