import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { assemblyTimeoutMs, MAX_PARTS, MiB } from './multipart-limits.js';
import type { ObjectHead } from './object-store.js';

export interface MultipartOptions {
  /** Bytes per part (S3: at least 5 MiB except the last; at most 10,000 parts). */
  readonly partBytes?: number;
  /** Upper bound on one part's request, so a stalled connection costs one part, not the upload. */
  readonly partTimeoutMs?: number;
  /** Attempts per part: a failed part is sent again alone, the parts already sent are kept. */
  readonly partAttempts?: number;
  readonly onProgress?: (sentBytes: number, totalBytes: number) => void;
  readonly signal?: AbortSignal;
}

export const DEFAULT_PART_BYTES = 16 * MiB;

/**
 * Uploads a local file of any size as an S3 multipart upload, streaming each part from the
 * file (memory stays at one part's buffers whatever the size), each part bounded by its own
 * timeout and retried alone. On failure the upload is aborted so no parts linger.
 */
export async function uploadFileMultipart(
  s3: S3Client,
  bucket: string,
  key: string,
  path: string,
  options: MultipartOptions = {},
): Promise<ObjectHead & { readonly parts: number }> {
  const { size } = await stat(path);
  const partBytes = Math.max(options.partBytes ?? DEFAULT_PART_BYTES, Math.ceil(size / MAX_PARTS), 5 * MiB);
  const attempts = options.partAttempts ?? 3;
  const partTimeoutMs = options.partTimeoutMs ?? 120_000;
  const completeTimeoutMs = assemblyTimeoutMs(size);
  const created = await s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }), {
    abortSignal: options.signal,
  });
  const uploadId = created.UploadId!;
  const parts: { PartNumber: number; ETag: string }[] = [];
  let sent = 0;
  try {
    const count = Math.max(1, Math.ceil(size / partBytes));
    for (let n = 1; n <= count; n += 1) {
      const start = (n - 1) * partBytes;
      const end = Math.min(size, start + partBytes); // exclusive
      let etag: string | undefined;
      for (let attempt = 1; etag === undefined; attempt += 1) {
        options.signal?.throwIfAborted();
        const timeout = AbortSignal.timeout(partTimeoutMs);
        const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
        try {
          const r = await s3.send(
            new UploadPartCommand({
              Bucket: bucket,
              Key: key,
              UploadId: uploadId,
              PartNumber: n,
              ContentLength: end - start,
              Body: end > start ? createReadStream(path, { start, end: end - 1 }) : Buffer.alloc(0),
            }),
            // The part's own bound replaces the client's request timeout (sized for small calls).
            { abortSignal: signal, requestTimeout: partTimeoutMs },
          );
          etag = r.ETag ?? '';
        } catch (error) {
          if (attempt >= attempts || options.signal?.aborted) throw error;
        }
      }
      parts.push({ PartNumber: n, ETag: etag });
      sent += end - start;
      options.onProgress?.(sent, size);
    }
    const done = await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: parts },
      }),
      { abortSignal: options.signal, requestTimeout: completeTimeoutMs },
    );
    return { bytes: size, etag: done.ETag ?? '', versionId: done.VersionId, parts: parts.length };
  } catch (error) {
    await s3
      .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }))
      .catch(() => {});
    throw error;
  }
}
