import middy from '@middy/core';
import { createAwsClients } from '../lib/aws/clients.js';
import { loadConfig } from '../lib/config/config.js';
import { createDynamoLedger } from '../lib/ledger/dynamodb-ledger.js';
import { type SplitDeps, type SplitResult, split } from '../lib/split/split.js';
import { parseSplitRequest } from '../lib/split/split-request.js';
import { createS3Store } from '../lib/store/s3-store.js';

// Built on the first invocation and kept for the container's life: importing this module needs
// no environment, and warm invocations reuse the SDK clients and their connections.
let deps: Omit<SplitDeps, 'signal'> | undefined;

function depsFromEnvironment(): Omit<SplitDeps, 'signal'> {
  const config = loadConfig();
  const clients = createAwsClients(config);
  return {
    store: createS3Store(clients.s3, config.bucket),
    ledger: createDynamoLedger(clients.documents, config.table),
  };
}

/** Split Lambda: event `{source, operation?, params?, executionArn?}` → a manifest reference (SplitResult). */
export const handler = middy<unknown, SplitResult>({ timeoutEarlyInMillis: 1_000 }).handler(
  async (event, _context, { signal }) => {
    const request = parseSplitRequest(event);
    deps ??= depsFromEnvironment();
    return split(request, { ...deps, signal });
  },
);
