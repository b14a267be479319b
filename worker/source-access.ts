import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunRecord } from '../lib/model/run.js';
import { PART_SUFFIX } from '../lib/output/atomic-output.js';
import type { ObjectStore } from '../lib/store/object-store.js';

/** How the tool reads a run's source: a /vsis3/ path (ranged reads) or one local copy per run. */
export interface SourceAccess {
  resolve(run: RunRecord, signal?: AbortSignal): Promise<string>;
  /** Frees what was kept for runs other than these (the cached copy of a finished run). */
  retain(runIds: ReadonlySet<string>): Promise<void>;
  dispose(): Promise<void>;
}

/** GDAL reads only the blocks a tile needs, by ranged GETs: no download at all. */
export function rangedSourceAccess(): SourceAccess {
  return {
    async resolve(run) {
      return `/vsis3/${run.source.bucket}/${run.source.key}`;
    },
    async retain() {},
    async dispose() {},
  };
}

/** One download per worker and run, shared by all of that run's sub-tiles on this worker. */
export function cachedSourceAccess(store: ObjectStore, dir: string): SourceAccess {
  const copies = new Map<string, Promise<string>>();
  const fetchCopy = async (run: RunRecord, signal?: AbortSignal) => {
    const target = join(dir, run.runId, 'source');
    await mkdir(join(dir, run.runId), { recursive: true });
    const part = `${target}${PART_SUFFIX}`;
    try {
      await store.download(run.source.key, part, { signal });
      await rename(part, target);
    } finally {
      await rm(part, { force: true });
    }
    return target;
  };
  return {
    resolve(run, signal) {
      let copy = copies.get(run.runId);
      if (!copy) {
        copy = fetchCopy(run, signal);
        copies.set(run.runId, copy);
        // A failed download is not cached: the next sub-tile tries again.
        copy.catch(() => copies.delete(run.runId));
      }
      return copy;
    },
    async retain(runIds) {
      for (const runId of [...copies.keys()]) {
        if (runIds.has(runId)) continue;
        copies.delete(runId);
        await rm(join(dir, runId), { recursive: true, force: true });
      }
    },
    async dispose() {
      copies.clear();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Runs of operations that need a local file read through `local`; the rest through `preferred`. */
export function routeSourceAccess(
  preferred: SourceAccess,
  local: SourceAccess,
  needsLocal: ReadonlySet<string>,
): SourceAccess {
  const pick = (operation: string) => (needsLocal.has(operation) ? local : preferred);
  return {
    resolve: (run, signal) => pick(run.operation).resolve(run, signal),
    async retain(runIds) {
      await preferred.retain(runIds);
      if (local !== preferred) await local.retain(runIds);
    },
    async dispose() {
      await preferred.dispose();
      if (local !== preferred) await local.dispose();
    },
  };
}
