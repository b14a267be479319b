import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchOperations } from './dynamo/batches.js';
import { claimOperations } from './dynamo/claims.js';
import { type DynamoLedgerOptions, ledgerContext } from './dynamo/context.js';
import { markerOperations } from './dynamo/markers.js';
import { reapOperation } from './dynamo/reap.js';
import { runOperations } from './dynamo/runs.js';
import type { Ledger } from './ledger.js';

export type { DynamoLedgerOptions } from './dynamo/context.js';

/**
 * The Ledger on one DynamoDB table (DynamoDB Local on a laptop), assembled from its concerns:
 * runs, claims, markers, batches (park, unpark) and the reaper. Layout: docs/architecture.md.
 */
export function createDynamoLedger(
  db: DynamoDBDocumentClient,
  table: string,
  options: DynamoLedgerOptions = {},
): Ledger {
  const ctx = ledgerContext(db, table, options);
  const claims = claimOperations(ctx);
  return {
    ...runOperations(ctx),
    ...claims,
    ...markerOperations(ctx, claims),
    ...batchOperations(ctx, claims),
    ...reapOperation(ctx, claims),
  };
}
