import { z } from 'zod';
import { OPERATION_NAMES } from '../model/run.js';
import { InvalidSplitRequestError } from './errors.js';
import { tileParamsSchema } from './job-params.js';

/** S3 keys: printable, no leading slash, no `..` segment, within S3's 1024-byte limit. */
const keySchema = z
  .string()
  .min(1)
  .max(1024)
  .refine(
    (k) => ![...k].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f),
    'an S3 key has no control characters',
  )
  .refine((k) => !k.startsWith('/') && !k.split('/').includes('..'), 'an S3 key is relative, without ".."');

/** What the state machine passes to the split Lambda (from the on-upload handler's execution input). */
export const splitRequestSchema = z.object({
  source: z
    .object({
      bucket: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'not a valid S3 bucket name'),
      key: keySchema,
      version: z.string().min(1).max(1024),
      etag: z
        .string()
        .regex(/^[0-9A-Za-z-]{1,128}$/, 'an ETag is hex digits (and a part count)')
        .optional(),
    })
    .strict(),
  /** Absent: chosen from the source's kind (raster-xyz for rasters, pointcloud-dtm for point clouds). */
  operation: z.enum(OPERATION_NAMES).optional(),
  params: tileParamsSchema.default({}),
  executionArn: z.string().min(1).max(2048).optional(),
});

export type SplitRequest = z.infer<typeof splitRequestSchema>;

/** Validates an untrusted event; every problem is listed in one InvalidSplitRequestError. */
export function parseSplitRequest(event: unknown): SplitRequest {
  const parsed = splitRequestSchema.safeParse(event);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(event)'}: ${i.message}`);
    throw new InvalidSplitRequestError(`invalid split request: ${problems.join('; ')}`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}
