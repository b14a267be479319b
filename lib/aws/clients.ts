import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { Config } from '../config/config.js';

export interface AwsClients {
  readonly dynamodb: DynamoDBClient;
  readonly documents: DynamoDBDocumentClient;
  readonly s3: S3Client;
  readonly sqs: SQSClient;
  destroy(): void;
}

// Real AWS must use the default credential chain. A local stack started by geohub hands out
// per-start credentials (config.localCredentials); these are the stand-ins' built-in ones.
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export function localCredentials(config: Config): { accessKeyId: string; secretAccessKey: string } {
  return config.localCredentials ?? LOCAL_CREDENTIALS;
}

/**
 * The SDK's default logger logs nothing, except that a failed request with a streamed body (an
 * upload's part) is then told to the console: "An error was encountered in a non-retryable
 * streaming request", on a user's terminal, after a Ctrl-C or a part this code retries itself
 * (s3-multipart-upload.ts). A logger of its own, equally silent, keeps that line out too. It has
 * only the methods the SDK calls unconditionally: with no `info` and no `error`, the SDK's logger
 * middleware builds no log entry per request (`logger.info?.(…)` evaluates nothing), as for
 * its own NoOpLogger; with them, every request's input and output were copied for nothing.
 */
const SILENT = { debug() {}, warn() {} } as unknown as NonNullable<S3ClientConfig['logger']>;

/** Region, retries, request bounds and local credentials: the settings every geohub client shares. */
export function clientSettings(config: Config, endpoint: string | undefined) {
  return {
    region: config.region,
    maxAttempts: config.maxAttempts,
    logger: SILENT,
    // Every request is bounded: a cleanup path must never wait on a socket forever.
    requestHandler: new NodeHttpHandler({
      connectionTimeout: config.connectTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      // Without this, smithy's handler only logs a warning when the timeout passes and the
      // request hangs on: a hung dependency would hang the worker's cleanup with it.
      throwOnRequestTimeout: true,
    }),
    ...(endpoint ? { endpoint, credentials: localCredentials(config) } : {}),
  };
}

export interface ClientOptions {
  /** Called once per request attempt sent (billing counts attempts): e.g. `DynamoDB`, `GetItemCommand`. */
  readonly onRequest?: (service: string, command: string) => void;
}

type Stack = { add(middleware: unknown, options: Record<string, unknown>): void };

function countRequests(
  client: { middlewareStack: unknown },
  service: string,
  onRequest: ClientOptions['onRequest'],
) {
  if (!onRequest) return;
  (client.middlewareStack as Stack).add(
    (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) =>
      async (args: unknown) => {
        onRequest(service, context.commandName ?? 'unknown');
        return next(args);
      },
    // Inside the retry middleware: each attempt is a billed request.
    { step: 'finalizeRequest', priority: 'low', name: 'geohubRequestCounter' },
  );
}

/** One set of SDK clients per process, honouring local endpoints when configured. */
export function createAwsClients(config: Config, options: ClientOptions = {}): AwsClients {
  const dynamodb = new DynamoDBClient(clientSettings(config, config.endpoints.dynamodb));
  const documents = DynamoDBDocumentClient.from(dynamodb, {
    marshallOptions: { removeUndefinedValues: true },
  });
  const s3 = new S3Client({
    ...clientSettings(config, config.endpoints.s3),
    ...(config.endpoints.s3 || config.s3Compatible
      ? {
          // s3rver needs path-style URLs, and stores aws-chunked framing verbatim unless
          // checksums are only sent when an operation requires them.
          forcePathStyle: true,
          requestChecksumCalculation: 'WHEN_REQUIRED' as const,
          responseChecksumValidation: 'WHEN_REQUIRED' as const,
        }
      : {}),
  });
  const sqs = new SQSClient(clientSettings(config, config.endpoints.sqs));
  countRequests(dynamodb, 'DynamoDB', options.onRequest);
  countRequests(s3, 'S3', options.onRequest);
  countRequests(sqs, 'SQS', options.onRequest);
  return {
    dynamodb,
    documents,
    s3,
    sqs,
    destroy() {
      documents.destroy();
      dynamodb.destroy();
      s3.destroy();
      sqs.destroy();
    },
  };
}
