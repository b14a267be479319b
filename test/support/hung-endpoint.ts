import { afterAll, afterEach, expect, it } from 'vitest';
import { type AwsClients, createAwsClients } from '../../lib/aws/clients.js';
import type { Config } from '../../lib/config/config.js';
import { stackClients } from './stack-clients.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';
import { waitUntil } from './wait-until.js';

/** The run-watch interval in production (GEOHUB_RUN_WATCH_MS): a cancel is seen within it. */
export const RUN_WATCH_MS = 1_000;

/** A bound far past any test's: only the cancel signal can end a request in time. */
export const NO_TIMEOUT_MS = 300_000;

type Service = keyof Config['endpoints'];

/**
 * For a test file: the suite's stack config, and `hung(service, timeout)`, SDK clients whose
 * requests to that service go to a TCP stand-in that accepts and never answers (a hung AWS
 * endpoint; every other service keeps its endpoint). What it opens is closed after each test;
 * `onTeardown` adds more (a client made from the hung config).
 */
export function useHungEndpoints() {
  const { config, clients } = stackClients();
  const proxies: TcpProxy[] = [];
  const destroyers: (() => void)[] = [];
  afterEach(async () => {
    for (const d of destroyers.splice(0)) d();
    await Promise.all(proxies.splice(0).map((p) => p.close()));
  });
  afterAll(() => clients.destroy());
  const hung = async (
    service: Service,
    requestTimeoutMs: number,
  ): Promise<{ proxy: TcpProxy; aws: AwsClients; config: Config }> => {
    // Blackhole mode never dials the target: a service with no local endpoint (Step Functions,
    // run in-process here) is hung just the same.
    const proxy = await startTcpProxy(config.endpoints[service] ?? 'http://127.0.0.1:9');
    proxies.push(proxy);
    proxy.setMode('blackhole');
    const hungConfig: Config = {
      ...config,
      requestTimeoutMs,
      maxAttempts: 1,
      endpoints: { ...config.endpoints, [service]: proxy.endpoint },
    };
    const aws = createAwsClients(hungConfig);
    destroyers.push(() => aws.destroy());
    return { proxy, aws, config: hungConfig };
  };
  return { config, hung, onTeardown: (destroy: () => void) => destroyers.push(destroy) };
}

/**
 * Starts `call` against a hung endpoint, cancels it once its request is on the wire, and checks
 * what Seed A asks of a cancel: the socket is closed, and the call settles with an AbortError,
 * within one run-watch interval. Returns how long the socket took to close.
 */
export async function expectAbandonedOnCancel(
  proxy: TcpProxy,
  call: (signal: AbortSignal) => Promise<unknown>,
): Promise<number> {
  const cancel = new AbortController();
  const settled = call(cancel.signal).then(
    () => 'resolved',
    (e: Error) => e.name,
  );
  expect(
    await waitUntil(() => proxy.openClients() > 0, 30_000, 10),
    'the request never reached the wire',
  ).toBe(true);
  const cancelledAt = Date.now();
  cancel.abort();
  const closed = await waitUntil(() => proxy.openClients() === 0, RUN_WATCH_MS, 5);
  const closedMs = Date.now() - cancelledAt;
  expect(closed, `socket still open ${closedMs} ms after the cancel`).toBe(true);
  expect(
    await Promise.race([settled, new Promise((r) => setTimeout(() => r('hanging'), RUN_WATCH_MS))]),
  ).toBe('AbortError');
  return closedMs;
}

/**
 * Without a cancel, the request timeout alone ends `call` against a hung endpoint: it fails no
 * sooner than `timeoutMs` (plus a long poll's wait) with a TimeoutError, and its socket is closed.
 */
export async function expectBoundedByTimeout(
  proxy: TcpProxy,
  call: () => Promise<unknown>,
  timeoutMs: number,
) {
  const started = Date.now();
  const error = await call().then(
    () => undefined,
    (e: Error) => e,
  );
  expect(error?.name).toBe('TimeoutError');
  const ms = Date.now() - started;
  expect(ms).toBeGreaterThanOrEqual(timeoutMs);
  // Bounded: the timeout, not the test's own limit, ended it (slack for a loaded machine).
  expect(ms).toBeLessThan(timeoutMs + 10_000);
  expect(await waitUntil(() => proxy.openClients() === 0, RUN_WATCH_MS, 5)).toBe(true);
}

/**
 * One test per call: each fails if the adapter stops handing the cancel signal to the SDK for
 * that call (Seed A: every in-flight request is abandoned on cancel).
 */
export function itAbandonsEachOnCancel<C>(
  service: string,
  calls: readonly (readonly [string, (client: C, signal: AbortSignal) => Promise<unknown>])[],
  open: () => Promise<{ proxy: TcpProxy; client: C }>,
) {
  for (const [name, call] of calls) {
    it(`${name}: the socket is closed within a run-watch interval of the cancel`, async () => {
      const { proxy, client } = await open();
      const ms = await expectAbandonedOnCancel(proxy, (signal) => call(client, signal));
      console.info(`${service} ${name}: socket closed ${ms} ms after the cancel`);
    });
  }
}
