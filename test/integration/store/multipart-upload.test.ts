import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAwsClients } from '../../../lib/aws/clients.js';
import { loadConfig } from '../../../lib/config/config.js';
import { uploadFileMultipart } from '../../../lib/store/s3-multipart-upload.js';
import { stackClients } from '../../support/stack-clients.js';
import { startTcpProxy } from '../../support/tcp-proxy.js';
import { tempDir } from '../../support/temp-dir.js';

const { config, clients, env, store } = stackClients();
afterAll(() => clients.destroy());
const MiB = 1024 * 1024;

describe('multipart upload (issue 20 #5)', () => {
  it('a part that stalls is timed out and sent again alone; the parts already sent are kept', async () => {
    const file = join(tempDir('geohub-mpu-'), 'source.bin');
    const bytes = randomBytes(12 * MiB);
    writeFileSync(file, bytes);
    // The S3 stand-in behind a proxy that goes silent after the first part, for a while.
    const proxy = await startTcpProxy(config.endpoints.s3!);
    const viaProxy = createAwsClients(loadConfig({ ...env, GEOHUB_ENDPOINT_S3: proxy.endpoint }));
    try {
      const progress: number[] = [];
      let stalled = 0;
      const key = `incoming/mpu-${Date.now()}.bin`;
      const head = await uploadFileMultipart(viaProxy.s3, config.bucket, key, file, {
        partBytes: 5 * MiB,
        partTimeoutMs: 1_000,
        partAttempts: 6,
        onProgress: (sent) => {
          progress.push(sent);
          if (progress.length === 1) {
            proxy.setMode('blackhole');
            stalled = Date.now();
            setTimeout(() => proxy.setMode('pass'), 2_500);
          }
        },
      });
      expect(stalled).toBeGreaterThan(0);
      expect(progress).toEqual([5 * MiB, 10 * MiB, 12 * MiB]);
      expect(head.bytes).toBe(12 * MiB);
      const copy = join(tempDir('geohub-mpu-'), 'copy.bin');
      await store.download(key, copy);
      expect(readFileSync(copy).equals(bytes)).toBe(true);
    } finally {
      viaProxy.destroy();
      await proxy.close();
    }
  });
});
