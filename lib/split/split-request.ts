import { z } from 'zod';
import { OPERATION_NAMES } from '../model/run.js';
import { s3KeySchema } from '../model/s3-key.js';
import { zodProblems } from '../model/zod-problems.js';
import { InvalidSplitRequestError } from './errors.js';
import { tileParamsSchema } from './job-params.js';

/** What the state machine passes to the split Lambda (from the on-upload handler's execution input). */
export const splitRequestSchema = z.object({
  source: z
    .object({
      bucket: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'not a valid S3 bucket name'),
      key: s3KeySchema,
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
    throw new InvalidSplitRequestError(`invalid split request: ${zodProblems(parsed.error, '(event)')}`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}
