import { describe, it } from 'vitest';
import { ledgerContext } from '../../../lib/ledger/dynamo/context.js';
import { dynamoMetatileStore } from '../../../lib/ledger/dynamo/metatile-store.js';
import { createDynamoLedger } from '../../../lib/ledger/dynamodb-ledger.js';
import { claimHandle } from '../../../lib/ledger/metatiles/claim-handle.js';
import {
  expectBoundedByTimeout,
  itAbandonsEachOnCancel,
  NO_TIMEOUT_MS,
  useHungEndpoints,
} from '../../support/hung-endpoint.js';

const { config, hung } = useHungEndpoints();

const metatile = { id: 'm-abort', tiles: [{ id: 't-abort', z: 1, x: 0, y: 0 }] } as never;

/**
 * A ledger whose every request goes to a TCP stand-in that accepts and never answers, and a
 * claim's handle on it (as `claim` would hand it out, had its answer come).
 */
async function hungLedger(requestTimeoutMs: number) {
  const { proxy, aws } = await hung('dynamodb', requestTimeoutMs);
  const store = dynamoMetatileStore(ledgerContext(aws.documents, config.table));
  const held = claimHandle(store, 'r-abort', metatile, 'w-1', 60_000);
  return { proxy, ledger: { ledger: createDynamoLedger(aws.documents, config.table), held } };
}
type HungLedger = Awaited<ReturnType<typeof hungLedger>>['ledger'];

// One case per kind of DynamoDB request the worker makes: each one fails if the adapter stops
// handing the cancel signal to the SDK (a read, an update, a transaction).
const CALLS: readonly [string, (l: HungLedger, signal: AbortSignal) => Promise<unknown>][] = [
  ['claim (UpdateItem)', (l, signal) => l.ledger.claim('r-abort', metatile, 'w-1', 60_000, { signal })],
  ['extend (UpdateItem)', (l, signal) => l.held.extend({ signal })],
  ['getRun (Query)', (l, signal) => l.ledger.getRun('r-abort', { signal })],
  ['getMetatile (GetItem)', (l, signal) => l.ledger.getMetatile('r-abort', 'm-abort', { signal })],
  [
    'markDone (TransactWriteItems)',
    (l, signal) =>
      l.held.markDone(new Map([['t-abort', { key: 'tiles/t.tif', etag: '"e"', bytes: 1 }]]) as never, 1, {
        signal,
      }),
  ],
];

describe('ledger requests are bounded and abandoned on cancel (issue 35)', () => {
  itAbandonsEachOnCancel('DynamoDB', CALLS, async () => {
    const { proxy, ledger } = await hungLedger(NO_TIMEOUT_MS);
    return { proxy, client: ledger };
  });

  it('without a cancel, the request timeout bounds a write and closes its socket', async () => {
    const { proxy, ledger } = await hungLedger(1_000);
    await expectBoundedByTimeout(proxy, () => ledger.held.extend(), 1_000);
  }, 60_000);
});
