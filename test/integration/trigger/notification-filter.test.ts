import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';
import { createAwsClients } from '../../../lib/aws/clients.js';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import { readServerlessDocument } from '../../../local/stack/serverless-document.js';
import { startTestHub } from '../../support/hub.js';

const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;

interface Notified {
  Filter: { S3Key: { Rules: { Name: string; Value: string }[] } };
}

/** serverless.yml with the upload trigger's key prefix changed, as a typo in the template would. */
function withTriggerPrefix(prefix: string): unknown {
  const doc = structuredClone(readServerlessDocument()) as {
    resources: { Resources: Record<string, { Properties: Record<string, unknown> }> };
  };
  const bucket = doc.resources.Resources.DataBucket!.Properties;
  const { LambdaConfigurations } = bucket.NotificationConfiguration as { LambdaConfigurations: Notified[] };
  const rule = LambdaConfigurations[0]!.Filter.S3Key.Rules.find((r) => r.Name === 'prefix');
  if (rule?.Value !== 'incoming/')
    throw new Error('serverless.yml no longer notifies incoming/: the test would prove nothing');
  rule.Value = prefix;
  return doc;
}

const hubs: LocalHub[] = [];
afterAll(async () => {
  await Promise.all(hubs.map((h) => h.stop()));
});

describe("the upload trigger is the bucket's notification configuration, locally as on AWS", () => {
  it('a template whose filter misses incoming/ starts no run: the upload says so at once', async () => {
    const hub = await startTestHub({ workers: 1, template: withTriggerPrefix('uploads/') });
    hubs.push(hub);
    const upload = await hub.upload(RGB);
    expect(upload.outcome).toBe('ignored');
    expect((upload as { reason: string }).reason).toMatch(
      /notification configuration \(serverless\.yml\) sends no ObjectCreated:CompleteMultipartUpload event for incoming\//,
    );
    // The file is stored (read as the account's administrator), and nothing started: no run
    // recorded, no execution.
    const admin = createAwsClients(hub.stack.config);
    try {
      const head = await admin.s3.send(
        new HeadObjectCommand({ Bucket: hub.stack.config.bucket, Key: upload.key }),
      );
      expect(head.ContentLength).toBeGreaterThan(0);
    } finally {
      admin.destroy();
    }
    expect(await hub.ledger.listRuns(10)).toEqual([]);
    expect(hub.executions.list()).toEqual([]);
  });
});
