import { readServerlessDocument, SERVERLESS_FILE } from '../stack/serverless-document.js';

/** What AWS gives one invocation of a Lambda function. */
export interface LambdaLimits {
  readonly memoryMiB: number;
  readonly timeoutSeconds: number;
}

interface ServerlessFunctions {
  provider?: { memorySize?: number; timeout?: number };
  functions?: Record<string, { handler?: string; memorySize?: number; timeout?: number }>;
}

/**
 * Each function's memory size and timeout as serverless.yml deploys them (a function's own
 * setting, else the provider's), by handler module: `functions/finalize.handler` → `finalize`.
 * The one source of truth for the limits the local stack enforces.
 */
export function readLambdaLimits(file = SERVERLESS_FILE): Record<string, LambdaLimits> {
  const doc = readServerlessDocument(file) as ServerlessFunctions;
  const memory = doc.provider?.memorySize ?? 1024;
  const timeout = doc.provider?.timeout ?? 6;
  const limits: Record<string, LambdaLimits> = {};
  for (const fn of Object.values(doc.functions ?? {})) {
    const module = fn.handler?.match(/^functions\/([a-z-]+)\.handler$/)?.[1];
    if (module)
      limits[module] = { memoryMiB: fn.memorySize ?? memory, timeoutSeconds: fn.timeout ?? timeout };
  }
  return limits;
}
