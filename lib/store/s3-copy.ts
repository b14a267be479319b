import { CopyObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { ObjectAccessDeniedError } from './errors.js';
import { assemblyTimeoutMs } from './multipart-limits.js';
import type { ObjectHead } from './object-store.js';
import { type MultipartCopyOptions, multipartCopy } from './s3-multipart-copy.js';

/** The largest object one CopyObject copies (S3's limit); past it a copy is a multipart copy. */
export const MAX_COPY_BYTES = 5 * 1024 ** 3;

export interface CopyOptions extends MultipartCopyOptions {
  /** Past this size the copy is a multipart one (default S3's limit for one CopyObject). */
  readonly maxCopyBytes?: number;
}

export interface S3ObjectRef {
  readonly bucket: string;
  readonly key: string;
  readonly versionId?: string;
}

/**
 * Copies an object within S3, server-side: no byte passes through this machine. The caller needs
 * s3:GetObject on the source and s3:PutObject on the target (s3:AbortMultipartUpload too, for an
 * object over 5 GiB: copied in parts, s3-multipart-copy.ts, and aborted on failure).
 */
export async function copyObject(
  s3: S3Client,
  from: S3ObjectRef,
  to: { bucket: string; key: string },
  options: CopyOptions = {},
): Promise<ObjectHead> {
  const version = from.versionId ? { VersionId: from.versionId } : {};
  const head = await s3
    .send(new HeadObjectCommand({ Bucket: from.bucket, Key: from.key, ...version }), {
      abortSignal: options.signal,
    })
    .catch((error: unknown) => {
      // A HEAD's 403 has no body: say what it refuses, in IAM's words (as S3 would for a GET).
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 403) {
        const action = from.versionId ? 's3:GetObjectVersion' : 's3:GetObject';
        throw new ObjectAccessDeniedError(
          `not authorized to perform: ${action} on resource: arn:aws:s3:::${from.bucket}/${from.key} (S3 answered the HEAD 403: no read of the object, or no s3:ListBucket and no object)`,
          { cause: error },
        );
      }
      throw error;
    });
  const bytes = head.ContentLength ?? 0;
  const source = `${from.bucket}/${from.key.split('/').map(encodeURIComponent).join('/')}${from.versionId ? `?versionId=${encodeURIComponent(from.versionId)}` : ''}`;
  if (bytes > (options.maxCopyBytes ?? MAX_COPY_BYTES)) {
    const pinnedByVersion = Boolean(from.versionId);
    return multipartCopy(s3, { header: source, bytes, etag: head.ETag ?? '', pinnedByVersion }, to, options);
  }
  const r = await s3.send(new CopyObjectCommand({ Bucket: to.bucket, Key: to.key, CopySource: source }), {
    abortSignal: options.signal,
    // One CopyObject of up to 5 GiB is copied at S3's pace before it answers.
    requestTimeout: assemblyTimeoutMs(bytes),
  });
  return { bytes, etag: r.CopyObjectResult?.ETag ?? '', versionId: r.VersionId };
}
