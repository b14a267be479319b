import { z } from 'zod';
import { s3KeySchema } from '../model/s3-key.js';

/** A collection manifest's key ends so: uploaded last under incoming/, it starts the run. */
export const COLLECTION_SUFFIX = '.collection.json';
/** Where members may live: incoming/ (each also a run of its own) or collections/ (no trigger). */
export const MEMBER_PREFIXES = ['collections/', 'incoming/'] as const;
/** Most members one run takes: the split plans 10,000 within a Lambda's limits (docs/collections.md). */
export const MAX_MEMBERS = 20_000;
/** A manifest of MAX_MEMBERS members with version ids and ETags stays under this. */
export const MAX_COLLECTION_BYTES = 8 * 1024 * 1024;

export const isCollectionKey = (key: string) => key.endsWith(COLLECTION_SUFFIX);

const memberKey = s3KeySchema
  .refine((k) => !k.split('/').includes('.'), 'a key has no "." segment')
  .refine(
    (k) => MEMBER_PREFIXES.some((p) => k.startsWith(p)),
    `a member lives under ${MEMBER_PREFIXES.join(' or ')}`,
  )
  .refine((k) => !isCollectionKey(k) && !k.endsWith('.job.json'), 'a member is a source file');

/** One member as the manifest pins it: the key, and the version the uploader wrote. */
export const collectionMemberSchema = z
  .object({
    key: memberKey,
    versionId: z.string().min(1).max(1024).optional(),
    /** Absent (a STAC item's asset): pinned to the version the split finds. */
    etag: z
      .string()
      .regex(/^"?[0-9A-Za-z-]{1,128}"?$/, 'an ETag is hex digits (and a part count)')
      .optional(),
  })
  .strict();

/**
 * The collection manifest: `{"members": [{key, versionId?, etag}, …]}`. Members are listed in
 * the order that decides overlaps (the later one wins, as gdalbuildvrt and gdalwarp order
 * their inputs); each is read at exactly the version named, as a single upload is.
 */
export const collectionManifestSchema = z
  .object({
    type: z.literal('geohub-collection').optional(),
    members: z.array(collectionMemberSchema).min(1).max(MAX_MEMBERS),
    /** Skip members that cannot be read (each recorded on the run) instead of refusing the run. */
    skipUnreadable: z.boolean().optional(),
  })
  .strict()
  .refine((m) => new Set(m.members.map((x) => x.key)).size === m.members.length, 'a key is listed twice');

export type CollectionMember = z.infer<typeof collectionMemberSchema>;
export type CollectionManifest = z.infer<typeof collectionManifestSchema>;
