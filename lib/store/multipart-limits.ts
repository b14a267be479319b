/** S3's multipart limits and the bounds this code puts on its requests, for uploads and copies alike. */

export const MiB = 1024 * 1024;

/** The most parts one multipart upload may have (S3). */
export const MAX_PARTS = 10_000;

/**
 * How long an assembly of `bytes` may take: completing a multipart upload (s3rver copies every
 * part; S3 takes up to minutes) or copying a part within S3, whose pace is S3's, not this
 * machine's. Bounded at a pessimistic 20 MB/s, never less than a minute.
 */
export const assemblyTimeoutMs = (bytes: number): number =>
  Math.max(60_000, Math.ceil(bytes / (20 * MiB)) * 1_000);
