import { z } from 'zod';
import { manifestRefSchema } from '../manifest/manifest-ref.js';
import { zodProblems } from '../model/zod-problems.js';
import { InvalidEnqueueRequestError } from './errors.js';

/** Where the next enqueue call starts: a line start in a manifest part, and tiles sent before it. */
export const enqueueCursorSchema = z
  .object({
    part: z.number().int().min(0),
    offset: z.number().int().min(0),
    sent: z.number().int().min(0),
  })
  .strict();

export type EnqueueCursor = z.infer<typeof enqueueCursorSchema>;

/** What the state machine's enqueue loop passes: the split's manifest reference and the last cursor. */
export const enqueueRequestSchema = z
  .object({
    manifest: manifestRefSchema,
    /** Absent or null on the first call. */
    cursor: enqueueCursorSchema.nullish(),
  })
  .superRefine((r, ctx) => {
    const c = r.cursor;
    if (!c) return;
    const part = r.manifest.parts[c.part];
    if (!part)
      ctx.addIssue({
        code: 'custom',
        path: ['cursor', 'part'],
        message: `no part ${c.part} in the manifest`,
      });
    else if (c.offset > part.bytes) {
      ctx.addIssue({ code: 'custom', path: ['cursor', 'offset'], message: `past the end of part ${c.part}` });
    }
    if (c.sent > r.manifest.total) {
      ctx.addIssue({ code: 'custom', path: ['cursor', 'sent'], message: 'more than the manifest total' });
    }
  });

export type EnqueueRequest = z.infer<typeof enqueueRequestSchema>;

export function parseEnqueueRequest(event: unknown): EnqueueRequest {
  const parsed = enqueueRequestSchema.safeParse(event);
  if (!parsed.success) {
    throw new InvalidEnqueueRequestError(`invalid enqueue request: ${zodProblems(parsed.error, '(event)')}`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}
