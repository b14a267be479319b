import { afterAll, describe, expect, it } from 'vitest';
import type { ExecutionStarter } from '../../../lib/executions/execution-starter.js';
import { startRunForUpload } from '../../../lib/trigger/start-run-for-upload.js';
import { countingStore } from '../../support/counting-store.js';
import { stackClients } from '../../support/stack-clients.js';

const { config, clients, ledger, store: s3 } = stackClients();
afterAll(() => clients.destroy());

describe('the upload trigger sizes a sidecar before it reads it (issue 20 #16)', () => {
  it('a 5 MB <key>.job.json is rejected from its size alone: not one byte of it is read', async () => {
    const key = `incoming/sidecar-size-${Date.now()}.tif`;
    await s3.putText(key, 'not read either');
    await s3.putText(`${key}.job.json`, ' '.repeat(5 * 1024 * 1024));
    const { store, counts } = countingStore(s3);
    const starter: ExecutionStarter = {
      arnFor: (runId: string) => `arn:aws:states:us-east-1:000000000000:execution:geohub-local:${runId}`,
      start: async () => {
        throw new Error('no execution may start');
      },
    };
    const outcome = await startRunForUpload(
      { store, ledger, starter },
      { bucket: config.bucket, key, version: 'v1' },
    );
    expect(outcome).toMatchObject({
      outcome: 'rejected',
      reason: `${key}.job.json is 5242880 bytes; a sidecar is at most 4096`,
    });
    expect(counts.bytesRead).toBe(0);
    expect(counts.wholeGets).toBe(0);
  });
});
