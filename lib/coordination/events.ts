import { z } from 'zod';
import { runIdSchema } from '../model/ids.js';

/** The state machine's task input for the per-run Lambdas. */
export const runEventSchema = z.object({ runId: runIdSchema });

/** MarkFailed's input: the run and the error the state machine caught. */
export const markFailedEventSchema = z.object({
  runId: runIdSchema,
  /** The execution's source, so a run that failed before split recorded it can still be recorded. */
  source: z
    .object({ bucket: z.string(), key: z.string(), version: z.string(), etag: z.string().optional() })
    .optional(),
  error: z.object({ Error: z.string().max(256), Cause: z.string().max(32_768).optional() }),
});

/** EventBridge "Step Functions Execution Status Change", for the statuses that stop a run. */
export const executionStatusEventSchema = z.object({
  detail: z.object({
    executionArn: z.string(),
    status: z.string(),
    input: z.string().optional(),
  }),
});

export const redriveEventSchema = z.object({ runId: runIdSchema.optional() }).strict();
