import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  type S3Client,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import PQueue from 'p-queue';
import { assemblyTimeoutMs, MAX_PARTS, MiB } from './multipart-limits.js';
import type { ObjectHead } from './object-store.js';

export interface MultipartCopyOptions {
  /** Bytes per part (S3: 5 MiB to 5 GiB, at most 10,000 parts): default 512 MiB, larger for objects past 5 TB. */
  readonly partBytes?: number;
  /** Parts copied at once: each is a server-side copy, no byte passes through this machine. */
  readonly concurrency?: number;
  /** Bytes copied so far, after each part. */
  readonly onProgress?: (copiedBytes: number, totalBytes: number) => void;
  /** Stops the copy: the parts in flight are abandoned and the upload aborted. */
  readonly signal?: AbortSignal;
}

/** One object to copy: its `CopySource`, its size and the ETag every part must come from. */
export interface CopySource {
  /** `bucket/key` URL-encoded, with `?versionId=` when a version is named. */
  readonly header: string;
  readonly bytes: number;
  readonly etag: string;
  /** A named version pins the bytes itself; otherwise each part is pinned to the ETag. */
  readonly pinnedByVersion: boolean;
}

/** Part sizes: `partBytes`, or larger when 10,000 of them would not hold the object. */
export function copyPartBytes(bytes: number, partBytes = 512 * MiB): number {
  return Math.max(partBytes, Math.ceil(bytes / MAX_PARTS));
}

/**
 * Copies an object of any size within S3 as a multipart copy (UploadPartCopy), server-side. Each
 * part names the source's ETag (`x-amz-copy-source-if-match`) unless a version pins it, so an
 * object overwritten during the copy fails it rather than mixing two objects' bytes. On any
 * failure the upload is aborted: no parts are left to be billed.
 */
export async function multipartCopy(
  s3: S3Client,
  source: CopySource,
  to: { bucket: string; key: string },
  options: MultipartCopyOptions = {},
): Promise<ObjectHead & { readonly parts: number }> {
  const partBytes = copyPartBytes(source.bytes, options.partBytes);
  const count = Math.max(1, Math.ceil(source.bytes / partBytes));
  const target = { Bucket: to.bucket, Key: to.key };
  const { signal } = options;
  const boundOf = (bytes: number) => ({ requestTimeout: assemblyTimeoutMs(bytes), abortSignal: signal });
  const created = await s3.send(new CreateMultipartUploadCommand(target), { abortSignal: signal });
  const uploadId = created.UploadId!;
  try {
    const parts: { PartNumber: number; ETag: string }[] = [];
    let copied = 0;
    let failure: { error: unknown } | undefined;
    const queue = new PQueue({ concurrency: options.concurrency ?? 4 });
    for (let i = 0; i < count; i += 1) {
      const first = i * partBytes;
      const last = Math.min(source.bytes, first + partBytes) - 1;
      void queue.add(async () => {
        if (failure) return;
        try {
          const r = await s3.send(
            new UploadPartCopyCommand({
              ...target,
              UploadId: uploadId,
              PartNumber: i + 1,
              CopySource: source.header,
              // An empty object has no byte range: its one part is the whole (empty) object.
              ...(source.bytes > 0 ? { CopySourceRange: `bytes=${first}-${last}` } : {}),
              ...(source.pinnedByVersion ? {} : { CopySourceIfMatch: source.etag }),
            }),
            boundOf(last - first + 1),
          );
          parts[i] = { PartNumber: i + 1, ETag: r.CopyPartResult?.ETag ?? '' };
          copied += last - first + 1;
          options.onProgress?.(copied, source.bytes);
        } catch (error) {
          // The first failure stops the copy: nothing more is started, and the abort below waits
          // for the parts in flight (a part completed after an abort would be billed).
          failure ??= { error };
          queue.clear();
        }
      });
    }
    await queue.onIdle();
    if (failure) throw failure.error;
    signal?.throwIfAborted();
    const done = await s3.send(
      new CompleteMultipartUploadCommand({
        ...target,
        UploadId: uploadId,
        MultipartUpload: { Parts: parts },
      }),
      boundOf(source.bytes),
    );
    return { bytes: source.bytes, etag: done.ETag ?? '', versionId: done.VersionId, parts: count };
  } catch (error) {
    // Not under the signal: a cancelled copy is exactly when its parts must go. (A part S3 was
    // still copying may outlive the abort; the bucket's lifecycle rule takes what is left.)
    await s3.send(new AbortMultipartUploadCommand({ ...target, UploadId: uploadId })).catch(() => {});
    throw error;
  }
}
