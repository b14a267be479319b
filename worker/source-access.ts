import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunHead } from '../lib/model/run.js';
import { PART_SUFFIX } from '../lib/output/atomic-output.js';
import { sourcePin } from '../lib/source/source-pin.js';
import type { ObjectStore } from '../lib/store/object-store.js';

/** How the tool reads a run's source: a /vsis3/ path (ranged reads) or one local copy per run. */
export interface SourceAccess {
  resolve(run: RunHead, signal?: AbortSignal): Promise<string>;
  /** Environment the tool needs to read that path as the run's pinned source version. */
  toolEnv(run: RunHead): Record<string, string>;
  /** Whether the run's source version can still be read this way (asked after a failure). */
  readable(run: RunHead, signal?: AbortSignal): Promise<boolean>;
  /** Frees what was kept for runs other than these (the cached copy of a finished run). */
  retain(runIds: ReadonlySet<string>): Promise<void>;
  dispose(): Promise<void>;
}

/** A VRT names other objects by paths relative to it: it is read where it is, and unpinned. */
export const isVrtKey = (key: string) => /\.vrt$/i.test(key);

/**
 * GDAL reads only the blocks a tile needs, by ranged GETs: no download at all. Each GET carries
 * `If-Match: "<the upload's ETag>"` (a header file per run in `dir`: GDAL_HTTP_HEADERS would
 * strip the quotes), so a re-uploaded source fails the read instead of mixing bytes. /vsis3/
 * cannot ask for a version id: on a versioned bucket an overwritten source fails here too.
 */
export function rangedSourceAccess(store: ObjectStore, dir: string): SourceAccess {
  const headerFiles = new Map<string, string>();
  // A file dropped by `retain` is removed asynchronously: a run back since gets a new name.
  let generation = 0;
  return {
    async resolve(run) {
      return `/vsis3/${run.source.bucket}/${run.source.key}`;
    },
    toolEnv(run): Record<string, string> {
      const etag = sourcePin(run.source)?.etag;
      // The header goes with every GET of the tool (GDAL 3.6 has no per-path headers): a VRT
      // reads other objects, whose ETags differ, so a VRT source is read unpinned.
      if (!etag || isVrtKey(run.source.key)) return {};
      let file = headerFiles.get(run.runId);
      if (!file) {
        file = join(dir, `${run.runId}.${++generation}.headers`);
        mkdirSync(dir, { recursive: true });
        writeFileSync(file, `If-Match: "${etag}"\r\n`);
        headerFiles.set(run.runId, file);
      }
      return { GDAL_HTTP_HEADER_FILE: file };
    },
    async readable(run, signal) {
      const etag = sourcePin(run.source)?.etag;
      return (await store.head(run.source.key, { signal, pin: etag ? { etag } : undefined })) !== undefined;
    },
    async retain(runIds) {
      for (const [runId, file] of [...headerFiles]) {
        if (runIds.has(runId)) continue;
        headerFiles.delete(runId);
        await rm(file, { force: true });
      }
    },
    async dispose() {
      headerFiles.clear();
    },
  };
}

/** One download per worker and run, shared by all of that run's sub-tiles on this worker. */
export function cachedSourceAccess(store: ObjectStore, dir: string): SourceAccess {
  const copies = new Map<string, { readonly dir: string; readonly path: Promise<string> }>();
  // Each copy in a directory of its own: `retain` removes a dropped one while the same run, back
  // on this worker, may already be downloading again.
  let generation = 0;
  const fetchCopy = async (runDir: string, run: RunHead, signal?: AbortSignal) => {
    const target = join(runDir, 'source');
    await mkdir(runDir, { recursive: true });
    const part = `${target}${PART_SUFFIX}`;
    try {
      // The run's version, by version id where there is one: a re-upload since does not matter.
      await store.download(run.source.key, part, { signal, pin: sourcePin(run.source) });
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
        const runDir = join(dir, `${run.runId}.${++generation}`);
        copy = { dir: runDir, path: fetchCopy(runDir, run, signal) };
        copies.set(run.runId, copy);
        // A failed download is not cached: the next sub-tile tries again.
        copy.path.catch(() => {
          if (copies.get(run.runId)?.dir === runDir) copies.delete(run.runId);
        });
      }
      return copy.path;
    },
    toolEnv() {
      return {};
    },
    async readable(run, signal) {
      if (copies.has(run.runId)) return true;
      return (await store.head(run.source.key, { signal, pin: sourcePin(run.source) })) !== undefined;
    },
    async retain(runIds) {
      for (const [runId, copy] of [...copies]) {
        if (runIds.has(runId)) continue;
        copies.delete(runId);
        await rm(copy.dir, { recursive: true, force: true });
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
    toolEnv: (run) => pick(run.operation).toolEnv(run),
    readable: (run, signal) => pick(run.operation).readable(run, signal),
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
