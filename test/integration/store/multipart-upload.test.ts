import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UploadPartCommand } from '@aws-sdk/client-s3';
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

  it('an upload that fails is aborted: no part of it is left to be billed', async () => {
    const file = join(tempDir('geohub-mpu-'), 'source.bin');
    writeFileSync(file, randomBytes(11 * MiB));
    const own = createAwsClients(config);
    let uploadId = '';
    let parts = 0;
    // From the second part on, every attempt fails before it is sent, as a part S3 keeps
    // refusing would.
    type Step = (
      next: (a: unknown) => Promise<unknown>,
      c: { commandName?: string },
    ) => (a: unknown) => Promise<unknown>;
    const step: Step = (next, context) => async (args) => {
      if (context.commandName === 'UploadPartCommand' && ++parts >= 2) throw new Error('part refused');
      const r = (await next(args)) as { output: { UploadId?: string } };
      if (context.commandName === 'CreateMultipartUploadCommand') uploadId = r.output.UploadId ?? '';
      return r;
    };
    (own.s3.middlewareStack as unknown as { add(m: Step, o: object): void }).add(step, {
      step: 'initialize',
    });
    try {
      const key = `incoming/mpu-failed-${Date.now()}.bin`;
      await expect(
        uploadFileMultipart(own.s3, config.bucket, key, file, { partBytes: 5 * MiB, partAttempts: 2 }),
      ).rejects.toThrow('part refused');
      expect(uploadId).toMatch(/^[0-9a-f]{32}$/);
      await expect(
        clients.s3.send(
          new UploadPartCommand({
            Bucket: config.bucket,
            Key: key,
            UploadId: uploadId,
            PartNumber: 3,
            Body: Buffer.alloc(1),
          }),
        ),
      ).rejects.toMatchObject({ name: 'NoSuchUpload' });
      expect(await store.head(key)).toBeUndefined();
    } finally {
      own.destroy();
    }
  });
});
