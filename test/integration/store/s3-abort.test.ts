import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createAwsClients } from '../../../lib/aws/clients.js';
import { createS3Store } from '../../../lib/store/s3-store.js';
import { stackClients } from '../../support/stack-clients.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';
import { tempDir } from '../../support/temp-dir.js';
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

/** An S3 store whose every request goes to a TCP stand-in that accepts and never answers. */
async function hungStore(requestTimeoutMs: number) {
  const proxy = await startTcpProxy(env.GEOHUB_ENDPOINT_S3!);
  proxies.push(proxy);
  proxy.setMode('blackhole');
  const aws = createAwsClients({
    ...config,
    requestTimeoutMs,
    maxAttempts: 1,
    endpoints: { ...config.endpoints, s3: proxy.endpoint },
  });
  destroyers.push(() => aws.destroy());
  return { proxy, store: createS3Store(aws.s3, config.bucket) };
}

/** Starts `call` against the hung store; ends it by `signal`; times the socket's close. */
async function abandonedOnCancel(
  call: (store: ReturnType<typeof createS3Store>, signal: AbortSignal) => Promise<unknown>,
) {
  // A bound far past the test's: only the cancel signal can end the request in time.
  const { proxy, store } = await hungStore(300_000);
  const cancel = new AbortController();
  const settled = call(store, cancel.signal).then(
    () => 'resolved',
    (e: Error) => e.name,
  );
  expect(await waitUntil(() => proxy.openClients() > 0, 30_000, 10)).toBe(true);
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

describe('every S3 call is bounded and abandoned on cancel (issue 35)', () => {
  const file = () => {
    const path = join(tempDir('geohub-s3-abort-'), 'tile.tif');
    writeFileSync(path, Buffer.alloc(64 * 1024, 7));
    return path;
  };

  it('put (the worker’s tile upload) is abandoned within a run-watch interval of a cancel', async () => {
    const path = file();
    const ms = await abandonedOnCancel((s, signal) => s.putFile('tiles/t.tif', path, { signal }));
    console.info(`S3 put: socket closed ${ms} ms after the cancel`);
  });

  it('get and head are abandoned on cancel', async () => {
    await abandonedOnCancel((s, signal) => s.getText('incoming/x.json', { signal }));
    await abandonedOnCancel((s, signal) => s.getRange('incoming/x.tif', 0, 1023, { signal }));
    await abandonedOnCancel((s, signal) => s.head('incoming/x.tif', { signal }));
  });

  it('a streamed (multipart-capable) upload through lib-storage is abandoned on cancel', async () => {
    async function* chunks() {
      yield Buffer.alloc(1024, 1);
    }
    await abandonedOnCancel((s, signal) => s.putStream('out/x.json', chunks(), { signal }));
  });

  it('without a cancel, the request timeout bounds a put: the socket is closed and the call fails', async () => {
    const { proxy, store } = await hungStore(1_000);
    const started = Date.now();
    const error = await store.putFile('tiles/t.tif', file()).then(
      () => undefined,
      (e: Error) => e,
    );
    const ms = Date.now() - started;
    expect(error?.name).toBe('TimeoutError');
    expect(ms).toBeGreaterThanOrEqual(1_000);
    expect(ms).toBeLessThan(1_000 + RUN_WATCH_MS * 5);
    expect(await waitUntil(() => proxy.openClients() === 0, RUN_WATCH_MS, 5)).toBe(true);
  });
});
