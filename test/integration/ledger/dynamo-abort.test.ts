import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createAwsClients } from '../../../lib/aws/clients.js';
import { createDynamoLedger } from '../../../lib/ledger/dynamodb-ledger.js';
import { stackClients } from '../../support/stack-clients.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';
import { waitUntil } from '../../support/wait-until.js';

const { config, clients, env } = stackClients();
const proxies: TcpProxy[] = [];
const destroyers: (() => void)[] = [];
afterEach(async () => {
  for (const d of destroyers.splice(0)) d();
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});
afterAll(() => clients.destroy());

/** The run-watch interval in production (GEOHUB_RUN_WATCH_MS): a cancel is seen within it. */
const RUN_WATCH_MS = 1_000;

/** A ledger whose every request goes to a TCP stand-in that accepts and never answers. */
async function hungLedger(requestTimeoutMs: number) {
  const proxy = await startTcpProxy(env.GEOHUB_ENDPOINT_DYNAMODB!);
  proxies.push(proxy);
  proxy.setMode('blackhole');
  const aws = createAwsClients({
    ...config,
    requestTimeoutMs,
    maxAttempts: 1,
    endpoints: { ...config.endpoints, dynamodb: proxy.endpoint },
  });
  destroyers.push(() => aws.destroy());
  return { proxy, ledger: createDynamoLedger(aws.documents, config.table) };
}

const metatile = { id: 'm-abort', tiles: [{ id: 't-abort', z: 1, x: 0, y: 0 }] } as never;

describe('ledger writes are bounded and abandoned on cancel (issue 35)', () => {
  for (const [name, write] of [
    [
      'claim',
      (l: ReturnType<typeof createDynamoLedger>, signal: AbortSignal) =>
        l.claim('r-abort', metatile, 'w-1', 60_000, { signal }),
    ],
    [
      'extendLease',
      (l: ReturnType<typeof createDynamoLedger>, signal: AbortSignal) =>
        l.extendLease('r-abort', 'm-abort', 'w-1', 60_000, { signal }),
    ],
  ] as const) {
    it(`${name}: the socket is closed within a run-watch interval of the cancel`, async () => {
      // A bound far past the test's: only the cancel can end the request in time.
      const { proxy, ledger } = await hungLedger(300_000);
      const cancel = new AbortController();
      const settled = write(ledger, cancel.signal).then(
        () => 'resolved',
        (e: Error) => e.name,
      );
      expect(await waitUntil(() => proxy.openClients() > 0, 30_000, 10)).toBe(true);
      const cancelledAt = Date.now();
      cancel.abort();
      const closed = await waitUntil(() => proxy.openClients() === 0, RUN_WATCH_MS, 5);
      console.info(`DynamoDB ${name}: socket closed ${Date.now() - cancelledAt} ms after the cancel`);
      expect(closed).toBe(true);
      expect(
        await Promise.race([settled, new Promise((r) => setTimeout(() => r('hanging'), RUN_WATCH_MS))]),
      ).toBe('AbortError');
    });
  }

  it('without a cancel, the request timeout bounds a write and closes its socket', async () => {
    const { proxy, ledger } = await hungLedger(1_000);
    const started = Date.now();
    const error = await ledger.extendLease('r-abort', 'm-abort', 'w-1', 60_000).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).toBeDefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(await waitUntil(() => proxy.openClients() === 0, RUN_WATCH_MS, 5)).toBe(true);
  }, 60_000);
});
