import { z } from 'zod';
import type { Env } from '../../lib/config/config.js';
import { ConfigError } from '../../lib/config/errors.js';
import { zodProblems } from '../../lib/model/zod-problems.js';

const rate = z.coerce.number().min(0).max(1);
const perSecond = z.coerce.number().int().positive();

const schema = z.object({
  GEOHUB_FAULT_SEED: z.coerce.number().int().default(1),
  GEOHUB_FAULT_DYNAMODB_CONFLICT: rate.default(0),
  GEOHUB_FAULT_DYNAMODB_CONFLICT_EVERY: z.coerce.number().int().min(0).default(0),
  GEOHUB_FAULT_DYNAMODB_THROTTLE: rate.default(0),
  GEOHUB_FAULT_DYNAMODB_500: rate.default(0),
  // DynamoDB's per-partition limits (docs.aws.amazon.com, "partitions and data distribution").
  GEOHUB_FAULT_DYNAMODB_KEY_WRITES_PER_S: perSecond.default(1_000),
  GEOHUB_FAULT_DYNAMODB_KEY_READS_PER_S: perSecond.default(3_000),
  GEOHUB_FAULT_S3_503: rate.default(0),
  GEOHUB_FAULT_S3_500: rate.default(0),
  GEOHUB_FAULT_SQS_500: rate.default(0),
  GEOHUB_FAULT_SQS_EMPTY_SHORT_POLL: rate.default(0),
  GEOHUB_FAULT_LAMBDA_SERVICE: rate.default(0),
  GEOHUB_FAULT_SFN_START_THROTTLE: rate.default(0),
  GEOHUB_FAULT_EVENTS_LOST: rate.default(0),
  GEOHUB_FAULT_EVENTS_LATE: rate.default(0),
  GEOHUB_FAULT_EVENTS_LATE_MS: z.coerce.number().int().min(0).default(5_000),
  GEOHUB_FAULT_LATENCY_MS: z.coerce.number().int().min(0).default(0),
});

/**
 * How hard the local stack's AWS-behaviour layer is: probabilities per data-plane request,
 * per-item rate limits, added latency. Conflicts between concurrent requests on one item
 * are always answered as DynamoDB does, whatever the rates.
 */
export interface FaultRates {
  readonly seed: number;
  readonly dynamodb: {
    /** Probability that a TransactWriteItems is cancelled for TransactionConflict. */
    readonly conflict: number;
    /**
     * Every n-th TransactWriteItems is cancelled for TransactionConflict as well (0: none): a
     * floor under the random rate, so a short run is sure to meet the fault it is testing.
     */
    readonly conflictEvery: number;
    /** Probability that a request is throttled. */
    readonly throttle: number;
    readonly serverError: number;
    readonly keyWritesPerSecond: number;
    readonly keyReadsPerSecond: number;
  };
  readonly s3: { readonly slowDown: number; readonly serverError: number };
  readonly sqs: {
    readonly serverError: number;
    /**
     * Probability that a short-poll ReceiveMessage (WaitTimeSeconds 0) answers no message while
     * the queue has some: SQS samples a subset of its servers (docs: "short and long polling").
     */
    readonly emptyShortPoll: number;
  };
  /**
   * Probability that Step Functions' invocation of a task Lambda fails with a Lambda service
   * error (Lambda.ServiceException, .SdkClientException, .TooManyRequestsException,
   * .ClientExecutionTimeoutException), per invocation.
   */
  readonly lambda: { readonly serviceError: number };
  /** Probability that StartExecution is refused (ThrottlingException, ExecutionLimitExceeded). */
  readonly sfn: { readonly startThrottle: number };
  /**
   * EventBridge's delivery of execution-status events is best-effort: probability that one is
   * never delivered, or delivered late (up to lateMs after the execution ended).
   */
  readonly events: { readonly lost: number; readonly late: number; readonly lateMs: number };
  /** Each request waits a uniform random time in [0, latencyMs] before it is answered. */
  readonly latencyMs: number;
}

/** Reads GEOHUB_FAULT_*; fails fast with every problem listed. */
export function parseFaultRates(env: Env): FaultRates {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(`invalid fault rates: ${zodProblems(parsed.error)}`, { cause: parsed.error });
  }
  const e = parsed.data;
  return {
    seed: e.GEOHUB_FAULT_SEED,
    dynamodb: {
      conflict: e.GEOHUB_FAULT_DYNAMODB_CONFLICT,
      conflictEvery: e.GEOHUB_FAULT_DYNAMODB_CONFLICT_EVERY,
      throttle: e.GEOHUB_FAULT_DYNAMODB_THROTTLE,
      serverError: e.GEOHUB_FAULT_DYNAMODB_500,
      keyWritesPerSecond: e.GEOHUB_FAULT_DYNAMODB_KEY_WRITES_PER_S,
      keyReadsPerSecond: e.GEOHUB_FAULT_DYNAMODB_KEY_READS_PER_S,
    },
    s3: { slowDown: e.GEOHUB_FAULT_S3_503, serverError: e.GEOHUB_FAULT_S3_500 },
    sqs: { serverError: e.GEOHUB_FAULT_SQS_500, emptyShortPoll: e.GEOHUB_FAULT_SQS_EMPTY_SHORT_POLL },
    lambda: { serviceError: e.GEOHUB_FAULT_LAMBDA_SERVICE },
    sfn: { startThrottle: e.GEOHUB_FAULT_SFN_START_THROTTLE },
    events: {
      lost: e.GEOHUB_FAULT_EVENTS_LOST,
      late: e.GEOHUB_FAULT_EVENTS_LATE,
      lateMs: e.GEOHUB_FAULT_EVENTS_LATE_MS,
    },
    latencyMs: e.GEOHUB_FAULT_LATENCY_MS,
  };
}

/** No random faults: only what concurrency causes on AWS (transaction conflicts, hot items). */
export const AWS_BASELINE: FaultRates = parseFaultRates({});
