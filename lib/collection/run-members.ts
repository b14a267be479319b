import { z } from 'zod';
import { runPrefix } from '../model/ids.js';
import type { SourceRef } from '../model/run.js';
import type { ObjectStore } from '../store/object-store.js';

/** `runs/<runId>/members.json`: the run's members, in order; a metatile's `members` index them. */
export const membersKey = (runId: string) => `${runPrefix(runId)}members.json`;

const memberSchema = z
  .object({
    key: z.string().min(1).max(1024),
    /** The version id where the bucket keeps versions, else the ETag: as a single run's source. */
    version: z.string().min(1),
    etag: z.string().min(1),
    bytes: z.number().int().min(0),
  })
  .strict();

/** What the split wrote for a collection run: the members read, and those it skipped and why. */
export const runMembersSchema = z
  .object({
    collection: z.string().min(1),
    members: z.array(memberSchema),
    skipped: z.array(z.object({ key: z.string(), reason: z.string() }).strict()),
  })
  .strict();

export type RunMember = z.infer<typeof memberSchema>;
export type RunMembers = z.infer<typeof runMembersSchema>;

/** A member as a source reference: read, pinned and cached as a single run's source is. */
export function memberSource(bucket: string, member: RunMember): SourceRef {
  return { bucket, key: member.key, version: member.version, etag: member.etag };
}

export async function writeRunMembers(
  store: ObjectStore,
  runId: string,
  members: RunMembers,
  signal?: AbortSignal,
): Promise<void> {
  await store.putText(membersKey(runId), JSON.stringify(members), {
    contentType: 'application/json',
    signal,
  });
}

/** The run's members, or undefined for a run of one source. */
export async function readRunMembers(
  store: ObjectStore,
  runId: string,
  signal?: AbortSignal,
): Promise<RunMembers | undefined> {
  if (!(await store.head(membersKey(runId), { signal }))) return undefined;
  return runMembersSchema.parse(JSON.parse(await store.getText(membersKey(runId), { signal })));
}
