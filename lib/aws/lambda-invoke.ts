import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { Config } from '../config/config.js';
import { clientSettings } from './clients.js';
import { FunctionFailedError } from './errors.js';

/** Runs one function and returns its JSON result: what `geohub redrive --stage` does. */
export type InvokeJson = <T>(functionName: string, payload: unknown) => Promise<T>;

/**
 * Lambda Invoke, RequestResponse, bounded like every client. A function that threw comes back
 * as Lambda sends it (a payload with `errorMessage` and the FunctionError header): thrown here.
 */
export function createLambdaInvoker(config: Config): { invoke: InvokeJson; destroy(): void } {
  const lambda = new LambdaClient({
    ...clientSettings(config, undefined),
    // A re-drive of many runs may take the function's whole timeout (15 min at most on Lambda),
    // and one sent twice would run twice: one attempt, bounded by that.
    maxAttempts: 1,
    requestHandler: new NodeHttpHandler({
      connectionTimeout: config.connectTimeoutMs,
      requestTimeout: 15 * 60_000,
      throwOnRequestTimeout: true,
    }),
  });
  return {
    async invoke<T>(functionName: string, payload: unknown): Promise<T> {
      const r = await lambda.send(
        new InvokeCommand({ FunctionName: functionName, Payload: Buffer.from(JSON.stringify(payload)) }),
      );
      const text = r.Payload ? Buffer.from(r.Payload).toString('utf8') : 'null';
      if (r.FunctionError) {
        const failure = JSON.parse(text) as { errorType?: string; errorMessage?: string };
        throw new FunctionFailedError(
          `${functionName} failed: ${failure.errorType ?? r.FunctionError}: ${failure.errorMessage ?? text}`,
        );
      }
      return JSON.parse(text) as T;
    },
    destroy: () => lambda.destroy(),
  };
}
