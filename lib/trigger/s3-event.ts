import { z } from 'zod';

const recordSchema = z.object({
  eventName: z.string(),
  s3: z.object({
    bucket: z.object({ name: z.string().min(3).max(63) }),
    object: z.object({
      key: z.string().min(1).max(4096),
      eTag: z.string().optional(),
      versionId: z.string().optional(),
      size: z.number().optional(),
    }),
  }),
});

export const s3EventSchema = z.object({ Records: z.array(recordSchema) });

export interface UploadRecord {
  readonly bucket: string;
  readonly key: string;
  /** Version id on a versioned bucket, else the ETag: what makes this upload distinct. */
  readonly version: string;
  /** The upload's ETag, unquoted: what every read of this run's source must still match. */
  readonly etag?: string;
  readonly size?: number;
}

/** How S3 writes a key into a notification: URL-encoded, '+' for a space, '/' kept. */
export function encodeEventKey(key: string): string {
  return key
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/%20/g, '+'))
    .join('/');
}

/** S3 notification keys are URL-encoded with '+' for spaces; this is S3's documented encoding. */
export function decodeEventKey(key: string): string {
  return decodeURIComponent(key.replace(/\+/g, ' '));
}

/** The object-created records of an S3 event (other event types are not uploads). */
export function uploadsOf(event: unknown): UploadRecord[] {
  const parsed = s3EventSchema.parse(event);
  return parsed.Records.filter((r) => r.eventName.startsWith('ObjectCreated:')).map((r) => {
    const o = r.s3.object;
    const etag = o.eTag ? o.eTag.replace(/"/g, '') : undefined;
    const version = o.versionId && o.versionId !== 'null' ? o.versionId : (etag ?? '');
    return { bucket: r.s3.bucket.name, key: decodeEventKey(o.key), version, etag, size: o.size };
  });
}
