import { describe } from 'vitest';
import { ledgerBatchesContract } from '../../support/ledger-batches-contract.js';
import { ledgerTransitionsContract } from '../../support/ledger-transitions-contract.js';
import { createMemoryLedger } from '../../support/memory-ledger.js';

describe('the in-memory ledger keeps the adapter’s semantics: every transition', () => {
  ledgerTransitionsContract((now) => createMemoryLedger({ now }));
});

describe('the in-memory ledger keeps the adapter’s semantics: park, unpark, reap', () => {
  ledgerBatchesContract(() => createMemoryLedger());
});
