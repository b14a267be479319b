import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type DynamoLedgerOptions, ledgerContext } from './dynamo/context.js';
import { dynamoMetatileStore } from './dynamo/metatile-store.js';
import { runOperations } from './dynamo/runs.js';
import type { Ledger } from './ledger.js';
import { batchOperations } from './metatiles/batch-operations.js';
import { claimOperation } from './metatiles/claim.js';

export type { DynamoLedgerOptions } from './dynamo/context.js';

/**
 * The Ledger on one DynamoDB table (DynamoDB Local on a laptop): runs, and metatiles whose
 * state machine (metatiles/transitions.ts) executes as conditional writes. Layout:
 * docs/architecture.md.
 */
export function createDynamoLedger(
  db: DynamoDBDocumentClient,
  table: string,
  options: DynamoLedgerOptions = {},
): Ledger {
  const ctx = ledgerContext(db, table, options);
  const store = dynamoMetatileStore(ctx);
  return {
    ...runOperations(ctx),
    getMetatile: store.getMetatile,
    getMetatiles: store.getMetatiles,
    listMetatiles: store.listMetatiles,
    ...claimOperation(store),
    ...batchOperations(store),
  };
}
