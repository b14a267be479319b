import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import PQueue from 'p-queue';
import {
  memberSource,
  membersKey,
  type RunMember,
  type RunMembers,
  readRunMembers,
} from '../lib/collection/run-members.js';
import type { RunHead } from '../lib/model/run.js';
import { PART_SUFFIX } from '../lib/output/atomic-output.js';
import { sourcePin } from '../lib/source/source-pin.js';
import type { ObjectStore } from '../lib/store/object-store.js';
import { TileDataError } from './errors.js';

/** How a collection run's metatile reads its members: local copies of their pinned versions. */
export interface MemberAccess {
  /** The local paths of these members (indexes into the run's member list), in that order. */
  resolve(run: RunHead, members: readonly number[], signal?: AbortSignal): Promise<string[]>;
  /** The first of these members whose listed version is gone (overwritten or deleted), if any. */
  gone(run: RunHead, members: readonly number[], signal?: AbortSignal): Promise<RunMember | undefined>;
  /** Frees the copies of runs other than these. */
  retain(runIds: ReadonlySet<string>): Promise<void>;
  dispose(): Promise<void>;
}

/** Member downloads in flight at once per worker. */
const DOWNLOADS_IN_FLIGHT = 4;

/**
 * Each member a worker's metatiles touch is downloaded once per run, pinned to the version the
 * collection listed (its version id, else its ETag): a member re-uploaded during the run fails
 * the read as a changed single source does, never mixes files. The run's member list
 * (`runs/<runId>/members.json`, written by the split) is read once per run. Copies keep the
 * member's file name: PDAL and GDAL pick a reader by extension where the bytes do not say.
 */
export function memberAccess(store: ObjectStore, dir: string): MemberAccess {
  const lists = new Map<string, Promise<RunMembers>>();
  const copies = new Map<string, Promise<string>>();
  const downloads = new PQueue({ concurrency: DOWNLOADS_IN_FLIGHT });
  // Each run's copies in a directory of its own generation: `retain` removes a dropped one while
  // the same run, back on this worker, may already be downloading again.
  const runDirs = new Map<string, string>();
  let generation = 0;
  const runDir = (runId: string) => {
    let got = runDirs.get(runId);
    if (!got) {
      got = join(dir, `${runId}.${++generation}`);
      runDirs.set(runId, got);
    }
    return got;
  };

  const remembered = <T>(map: Map<string, Promise<T>>, key: string, make: () => Promise<T>) => {
    let got = map.get(key);
    if (!got) {
      got = make();
      map.set(key, got);
      // A failure is not cached: the next metatile tries again.
      got.catch(() => map.delete(key));
    }
    return got;
  };

  const listOf = (run: RunHead, signal?: AbortSignal) =>
    remembered(lists, run.runId, async () => {
      const list = await readRunMembers(store, run.runId, signal);
      if (!list) throw new TileDataError(`run ${run.runId} has no member list (${membersKey(run.runId)})`);
      return list;
    });

  const copyOf = (run: RunHead, list: RunMembers, index: number, signal?: AbortSignal) =>
    remembered(copies, `${run.runId}/${index}`, async () => {
      const member = list.members[index];
      if (!member)
        throw new TileDataError(`run ${run.runId} has no member ${index} (it has ${list.members.length})`);
      const folder = join(runDir(run.runId), String(index));
      const target = join(folder, basename(member.key));
      await mkdir(folder, { recursive: true });
      const part = `${target}${PART_SUFFIX}`;
      try {
        const pin = sourcePin(memberSource(run.source.bucket, member));
        await downloads.add(() => store.download(member.key, part, { signal, pin }));
        await rename(part, target);
      } finally {
        await rm(part, { force: true });
      }
      return target;
    });

  return {
    async resolve(run, members, signal) {
      const list = await listOf(run, signal);
      return Promise.all(members.map((index) => copyOf(run, list, index, signal)));
    },
    async gone(run, members, signal) {
      const list = await listOf(run, signal);
      for (const index of members) {
        const member = list.members[index];
        if (!member) continue;
        const pin = sourcePin(memberSource(run.source.bucket, member));
        if (!(await store.head(member.key, { signal, pin }))) return member;
      }
      return undefined;
    },
    async retain(runIds) {
      for (const runId of [...lists.keys()]) if (!runIds.has(runId)) lists.delete(runId);
      for (const key of [...copies.keys()])
        if (!runIds.has(key.slice(0, key.indexOf('/')))) copies.delete(key);
      for (const [runId, folder] of [...runDirs]) {
        if (runIds.has(runId)) continue;
        runDirs.delete(runId);
        await rm(folder, { recursive: true, force: true });
      }
    },
    async dispose() {
      lists.clear();
      copies.clear();
      runDirs.clear();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
