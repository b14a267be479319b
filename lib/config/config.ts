import { z } from 'zod';
import { MAX_TILES_PER_MESSAGE } from '../model/metatile.js';
import { zodProblems } from '../model/zod-problems.js';
import { ConfigError } from './errors.js';

const url = z.url({ protocol: /^https?$/ });
const positiveInt = z.coerce.number().int().positive();

/**
 * Every setting geohub reads from the environment, in one place. The same names are set by
 * serverless.yml on AWS and by the local stack on a laptop: only the endpoints differ.
 */
const schema = z.object({
  GEOHUB_REGION: z.string().min(1).default('us-east-1'),
  GEOHUB_ENDPOINT_DYNAMODB: url.optional(),
  GEOHUB_ENDPOINT_S3: url.optional(),
  GEOHUB_ENDPOINT_SQS: url.optional(),
  // Per-start credentials of the local stand-ins (docs/architecture.md#access); unused on AWS.
  GEOHUB_LOCAL_ACCESS_KEY_ID: z
    .string()
    .regex(/^[A-Za-z0-9]{8,128}$/)
    .optional(),
  GEOHUB_LOCAL_SECRET_ACCESS_KEY: z.string().min(8).max(128).optional(),
  GEOHUB_ENDPOINT_SFN: url.optional(),
  // The SDK's own endpoint override (AWS_ENDPOINT_URL_S3) names an S3-compatible store: set by
  // the CLI's --stage when it sees one (local/cli/stage/stage-config.ts).
  GEOHUB_S3_COMPATIBLE: z.enum(['0', '1']).default('0'),
  GEOHUB_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'not a valid S3 bucket name'),
  GEOHUB_TABLE: z.string().regex(/^[A-Za-z0-9_.-]{3,255}$/, 'not a valid DynamoDB table name'),
  GEOHUB_QUEUE_URL: url,
  GEOHUB_DLQ_URL: url,
  GEOHUB_STATE_MACHINE_ARN: z
    .string()
    .regex(/^arn:aws[a-z-]*:states:/, 'not a state machine ARN')
    .optional(),
  GEOHUB_REQUEST_TIMEOUT_MS: positiveInt.default(10_000),
  GEOHUB_CONNECT_TIMEOUT_MS: positiveInt.default(3_000),
  GEOHUB_MAX_ATTEMPTS: positiveInt.default(3),
  GEOHUB_BREAKER_MIN_SAMPLE: positiveInt.default(20),
  GEOHUB_BREAKER_FAILURE_RATIO: z.coerce.number().gt(0).lte(1).default(0.5),
  // Step Functions fails an execution at 25,000 history events; the progress loop hands over
  // well before, leaving room for split, the enqueue loop, finalize and a drain.
  GEOHUB_LOOP_EVENT_BUDGET: positiveInt.max(20_000).default(15_000),
  GEOHUB_DRAIN_MAX_MS: positiveInt.default(900_000),
  // Sub-tiles per message, the metatile a worker claims and marks at once; smaller when one
  // sub-tile's work is long, so a metatile stays inside the spot warning (docs/architecture.md).
  GEOHUB_TILES_PER_MESSAGE: positiveInt.max(MAX_TILES_PER_MESSAGE).default(MAX_TILES_PER_MESSAGE),
  // The point-cloud engine of the workers; the split refuses what they cannot decode.
  GEOHUB_POINTCLOUD_ENGINE: z.enum(['pdal', 'local', 'auto']).default('auto'),
});

export interface Config {
  readonly region: string;
  readonly endpoints: {
    readonly dynamodb?: string;
    readonly s3?: string;
    readonly sqs?: string;
    readonly sfn?: string;
  };
  /** An S3-compatible endpoint (not AWS): path-style addressing, checksums only where required. */
  readonly s3Compatible: boolean;
  /** Credentials the local stand-ins were started with (absent on AWS: the default chain). */
  readonly localCredentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
  readonly bucket: string;
  readonly table: string;
  readonly queueUrl: string;
  readonly deadLetterQueueUrl: string;
  /** Needed by what starts executions (on-upload, redrive); absent in workers. */
  readonly stateMachineArn?: string;
  /** Upper bound on any single AWS request, so no cleanup path can hang on the network. */
  readonly requestTimeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly maxAttempts: number;
  /** The per-run circuit breaker opens once this many attempts ended, if enough of them failed. */
  readonly breaker: { readonly minSample: number; readonly failureRatio: number };
  /** History events one execution's progress loop may write before a fresh execution takes over. */
  readonly loopEventBudget: number;
  /** How long a drain waits for workers to park an open-breaker run's work before failing the run. */
  readonly maxDrainMs: number;
  /** Sub-tiles per work message: the metatile claimed and marked at once (at most 16). */
  readonly tilesPerMessage: number;
  /** The workers' point-cloud engine: `auto` is PDAL when it is on PATH (lib/operations/pointcloud-engine.ts). */
  readonly pointcloudEngine: 'pdal' | 'local' | 'auto';
}

export type Env = Readonly<Record<string, string | undefined>>;

/** Parses the environment once; fails fast with every problem listed, never a partial config. */
export function loadConfig(env: Env = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(`invalid geohub configuration: ${zodProblems(parsed.error)}`, {
      cause: parsed.error,
    });
  }
  const e = parsed.data;
  return {
    region: e.GEOHUB_REGION,
    endpoints: {
      dynamodb: e.GEOHUB_ENDPOINT_DYNAMODB,
      s3: e.GEOHUB_ENDPOINT_S3,
      sqs: e.GEOHUB_ENDPOINT_SQS,
      sfn: e.GEOHUB_ENDPOINT_SFN,
    },
    s3Compatible: e.GEOHUB_S3_COMPATIBLE === '1',
    ...(e.GEOHUB_LOCAL_ACCESS_KEY_ID && e.GEOHUB_LOCAL_SECRET_ACCESS_KEY
      ? {
          localCredentials: {
            accessKeyId: e.GEOHUB_LOCAL_ACCESS_KEY_ID,
            secretAccessKey: e.GEOHUB_LOCAL_SECRET_ACCESS_KEY,
          },
        }
      : {}),
    bucket: e.GEOHUB_BUCKET,
    table: e.GEOHUB_TABLE,
    queueUrl: e.GEOHUB_QUEUE_URL,
    deadLetterQueueUrl: e.GEOHUB_DLQ_URL,
    stateMachineArn: e.GEOHUB_STATE_MACHINE_ARN,
    requestTimeoutMs: e.GEOHUB_REQUEST_TIMEOUT_MS,
    connectTimeoutMs: e.GEOHUB_CONNECT_TIMEOUT_MS,
    maxAttempts: e.GEOHUB_MAX_ATTEMPTS,
    breaker: { minSample: e.GEOHUB_BREAKER_MIN_SAMPLE, failureRatio: e.GEOHUB_BREAKER_FAILURE_RATIO },
    loopEventBudget: e.GEOHUB_LOOP_EVENT_BUDGET,
    maxDrainMs: e.GEOHUB_DRAIN_MAX_MS,
    tilesPerMessage: e.GEOHUB_TILES_PER_MESSAGE,
    pointcloudEngine: e.GEOHUB_POINTCLOUD_ENGINE,
  };
}
