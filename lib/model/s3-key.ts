import { z } from 'zod';

/** S3 keys: printable, no leading slash, no `..` segment, within S3's 1024-byte limit. */
export const s3KeySchema = z
  .string()
  .min(1)
  .max(1024)
  .refine(
    (k) => ![...k].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f),
    'an S3 key has no control characters',
  )
  .refine((k) => !k.startsWith('/') && !k.split('/').includes('..'), 'an S3 key is relative, without ".."');
