import { basename } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import PQueue from 'p-queue';
import { COLLECTION_SUFFIX, type CollectionManifest } from '../../lib/collection/collection-manifest.js';
import { sidecarKeyFor } from '../../lib/split/job-params.js';
import type { ObjectStore } from '../../lib/store/object-store.js';
import { uploadFileMultipart } from '../../lib/store/s3-multipart-upload.js';
import { localVersionId } from '../stack/versioned-events.js';

/** Member uploads at once: a few parts in flight each, as the AWS CLI's default of 10 requests. */
const UPLOADS_IN_FLIGHT = 3;

export interface CollectionUpload {
  /** The collection manifest's key: its upload's event starts the run. */
  readonly key: string;
  readonly parts: number;
  readonly members: number;
  /** The manifest's ETag: with its key, what names the run (lib/model/ids.ts runIdFor). */
  readonly etag: string;
}

/**
 * A collection as a user uploads one to AWS: every member under `collections/<upload>/` (a prefix
 * that starts no run), then, last, the manifest naming each member with the version and ETag S3
 * answered, under incoming/: its event starts one run over all of them.
 */
export async function uploadCollection(
  s3: S3Client,
  store: ObjectStore,
  files: readonly string[],
  options: {
    readonly manifestKey: string;
    readonly job?: Record<string, unknown>;
    readonly onProgress?: (sentBytes: number, totalBytes: number) => void;
    readonly signal?: AbortSignal;
    readonly sizes: readonly number[];
    readonly skipUnreadable?: boolean;
  },
): Promise<CollectionUpload> {
  const folder = memberFolder(options.manifestKey);
  const total = options.sizes.reduce((a, b) => a + b, 0);
  const sent = new Map<number, number>();
  const queue = new PQueue({ concurrency: UPLOADS_IN_FLIGHT });
  let parts = 0;
  const members = await Promise.all(
    files.map((file, i) =>
      queue.add(async () => {
        const key = `${folder}${basename(file)}`;
        const done = await uploadFileMultipart(s3, store.bucket, key, file, {
          signal: options.signal,
          onProgress: (bytes) => {
            sent.set(i, bytes);
            options.onProgress?.(
              [...sent.values()].reduce((a, b) => a + b, 0),
              total,
            );
          },
        });
        parts += done.parts;
        const etag = done.etag.replace(/^"|"$/g, '');
        // The template's bucket is versioned: S3 answers every upload with its version id.
        // s3rver keeps no versions; the local stack names them as its events do.
        return { key, etag, versionId: done.versionId ?? localVersionId(store.bucket, key, etag) };
      }),
    ),
  );
  if (options.job) await store.putText(sidecarKeyFor(options.manifestKey), JSON.stringify(options.job));
  const manifest: CollectionManifest = {
    type: 'geohub-collection',
    members,
    ...(options.skipUnreadable ? { skipUnreadable: true } : {}),
  };
  const head = await store.putText(options.manifestKey, JSON.stringify(manifest), {
    contentType: 'application/json',
    signal: options.signal,
  });
  return { key: options.manifestKey, parts, members: members.length, etag: head.etag };
}

/** Where the members of the collection whose manifest is `manifestKey` are uploaded. */
export const memberFolder = (manifestKey: string) =>
  manifestKey.replace(/^incoming\//, 'collections/').replace(/\/[^/]*$/, '/');

/** The manifest's name for a collection called `name` (a directory's or a list's name). */
export const collectionFileName = (name: string) =>
  `${basename(name).replace(/\.[^.]*$/, '') || 'collection'}${COLLECTION_SUFFIX}`;
