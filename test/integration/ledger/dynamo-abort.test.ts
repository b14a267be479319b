import { describe, it } from 'vitest';
import { createDynamoLedger } from '../../../lib/ledger/dynamodb-ledger.js';
import {
  expectBoundedByTimeout,
  itAbandonsEachOnCancel,
  NO_TIMEOUT_MS,
  useHungEndpoints,
} from '../../support/hung-endpoint.js';

const { config, hung } = useHungEndpoints();

/** A ledger whose every request goes to a TCP stand-in that accepts and never answers. */
async function hungLedger(requestTimeoutMs: number) {
  const { proxy, aws } = await hung('dynamodb', requestTimeoutMs);
  return { proxy, ledger: createDynamoLedger(aws.documents, config.table) };
}

const metatile = { id: 'm-abort', tiles: [{ id: 't-abort', z: 1, x: 0, y: 0 }] } as never;
type DynamoLedger = ReturnType<typeof createDynamoLedger>;

// One case per kind of DynamoDB request the worker makes: each one fails if the adapter stops
// handing the cancel signal to the SDK (a read, an update, a transaction).
const CALLS: readonly [string, (l: DynamoLedger, signal: AbortSignal) => Promise<unknown>][] = [
  ['claim (UpdateItem)', (l, signal) => l.claim('r-abort', metatile, 'w-1', 60_000, { signal })],
  ['extendLease (UpdateItem)', (l, signal) => l.extendLease('r-abort', 'm-abort', 'w-1', 60_000, { signal })],
  ['getRun (Query)', (l, signal) => l.getRun('r-abort', { signal })],
  ['getMetatile (GetItem)', (l, signal) => l.getMetatile('r-abort', 'm-abort', { signal })],
  [
    'markDone (TransactWriteItems)',
    (l, signal) =>
      l.markDone(
        'r-abort',
        metatile,
        'w-1',
        new Map([['t-abort', { key: 'tiles/t.tif', etag: '"e"', bytes: 1 }]]) as never,
        1,
        { signal },
      ),
  ],
];

describe('ledger requests are bounded and abandoned on cancel (issue 35)', () => {
  itAbandonsEachOnCancel('DynamoDB', CALLS, async () => {
    const { proxy, ledger } = await hungLedger(NO_TIMEOUT_MS);
    return { proxy, client: ledger };
  });

  it('without a cancel, the request timeout bounds a write and closes its socket', async () => {
    const { proxy, ledger } = await hungLedger(1_000);
    await expectBoundedByTimeout(proxy, () => ledger.extendLease('r-abort', 'm-abort', 'w-1', 60_000), 1_000);
  }, 60_000);
});
