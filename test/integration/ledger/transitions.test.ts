import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe } from 'vitest';
import { createDynamoLedger } from '../../../lib/ledger/dynamodb-ledger.js';
import { createTable } from '../../../local/stack/create-table.js';
import { readResources } from '../../../local/stack/resources.js';
import { LOCAL_ACCOUNT, LOCAL_REGION, LOCAL_STAGE } from '../../../local/stack/stack.js';
import { ledgerTransitionsContract } from '../../support/ledger-transitions-contract.js';
import { stackClients } from '../../support/stack-clients.js';

const { config, clients } = stackClients();
// A table of its own: the contract's leases are on a clock in 2001, and any other file's reaper
// on the suite's table (reapExpiredLeases(Date.now())) would take them mid-cell.
const table = `${config.table}-transitions-${process.pid}`;
beforeAll(async () => {
  const { table: definition } = readResources({
    stage: LOCAL_STAGE,
    accountId: LOCAL_ACCOUNT,
    region: LOCAL_REGION,
  });
  await createTable(clients.dynamodb, definition, table);
});
afterAll(async () => {
  await clients.dynamodb.send(new DeleteTableCommand({ TableName: table }));
  clients.destroy();
});

describe('every metatile transition on DynamoDB Local', () => {
  ledgerTransitionsContract((now) => createDynamoLedger(clients.documents, table, { now }));
});
