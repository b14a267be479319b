import { afterAll, describe, expect, it } from 'vitest';
import { ledgerBatchesContract } from '../../support/ledger-batches-contract.js';
import { seedLedgerRun } from '../../support/ledger-run.js';
import { stackClients } from '../../support/stack-clients.js';

const { clients, ledger } = stackClients();
afterAll(() => clients.destroy());

describe('park, unpark and the reaper on DynamoDB Local', () => {
  ledgerBatchesContract(() => ledger);

  it('the reaper finds a stranded claim behind more than a hundred newer runs', async () => {
    const old = await seedLedgerRun(ledger, 1, 1);
    await ledger.claim(old.runId, old.metatiles[0]!, 'gone', 1);
    await ledger.updateRun(old.runId, { status: 'CANCELLED' });
    for (let i = 0; i < 101; i += 10)
      await Promise.all(Array.from({ length: 10 }, () => seedLedgerRun(ledger, 0)));
    expect((await ledger.listRuns(100)).some((r) => r.runId === old.runId)).toBe(false);
    await new Promise((r) => setTimeout(r, 20));
    await ledger.reapExpiredLeases(Date.now());
    expect((await ledger.getMetatile(old.runId, old.metatiles[0]!.id))?.state).toBe('CANCELLED');
  });
});
