import { z } from 'zod';
import { runIdSchema } from '../model/ids.js';

/** The state machine's task input for the per-run Lambdas. */
export const runEventSchema = z.object({ runId: runIdSchema });

/** CheckProgress's input: the turns this execution's progress loop has made so far. */
export const checkProgressEventSchema = z.object({
  runId: runIdSchema,
  turns: z.number().int().nonnegative().default(0),
});

/** Drain's input: when this drain began (null on its first pass), so it can give up in time. */
export const drainEventSchema = z.object({
  runId: runIdSchema,
  since: z.number().int().nonnegative().nullable().default(null),
});

/** HandOver's input: the execution handing over and what the next one needs to resume. */
export const handOverEventSchema = z.object({
  runId: runIdSchema,
  executionArn: z.string().min(1).max(2048),
  source: z.object({ bucket: z.string(), key: z.string(), version: z.string() }),
  operation: z.string().max(64).optional(),
  params: z.record(z.string(), z.unknown()).optional(),
});

/** MarkFailed's input: the run and the error the state machine caught. */
export const markFailedEventSchema = z.object({
  runId: runIdSchema,
  /** The execution's source, so a run that failed before split recorded it can still be recorded. */
  source: z
    .object({ bucket: z.string(), key: z.string(), version: z.string(), etag: z.string().optional() })
    .optional(),
  error: z.object({ Error: z.string().max(256), Cause: z.string().max(32_768).optional() }),
});

/** EventBridge "Step Functions Execution Status Change", for the statuses that end a run's execution. */
export const executionStatusEventSchema = z.object({
  detail: z.object({
    executionArn: z.string(),
    status: z.string(),
    input: z.string().nullish(),
    error: z.string().nullish(),
    cause: z.string().nullish(),
  }),
});

export const redriveEventSchema = z.object({ runId: runIdSchema.optional() }).strict();
