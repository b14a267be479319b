import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { createS3Store } from '../../../lib/store/s3-store.js';
import {
  expectAbandonedOnCancel,
  expectBoundedByTimeout,
  NO_TIMEOUT_MS,
  useHungEndpoints,
} from '../../support/hung-endpoint.js';
import { tempDir } from '../../support/temp-dir.js';

const { config, hung } = useHungEndpoints();

/** An S3 store whose every request goes to a TCP stand-in that accepts and never answers. */
async function hungStore(requestTimeoutMs: number) {
  const { proxy, aws } = await hung('s3', requestTimeoutMs);
  return { proxy, store: createS3Store(aws.s3, config.bucket) };
}

/** Starts `call` against the hung store; ends it by `signal`; times the socket's close. */
async function abandonedOnCancel(
  call: (store: ReturnType<typeof createS3Store>, signal: AbortSignal) => Promise<unknown>,
) {
  const { proxy, store } = await hungStore(NO_TIMEOUT_MS);
  return expectAbandonedOnCancel(proxy, (signal) => call(store, signal));
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
    await expectBoundedByTimeout(proxy, () => store.putFile('tiles/t.tif', file()), 1_000);
  });
});
