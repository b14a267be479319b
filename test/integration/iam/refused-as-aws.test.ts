import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, it } from 'vitest';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import { readServerlessDocument } from '../../../local/stack/serverless-document.js';
import { startTestHub } from '../../support/hub.js';

// Catches: a stand-in that answers every caller (a role missing an action passes every test and
// ends every run on AWS); a refusal in a shape the SDK retries or names otherwise than AWS's.

const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const hubs: LocalHub[] = [];
afterAll(async () => {
  await Promise.all(hubs.map((h) => h.stop()));
});

type Statement = { Action: string | string[] };
type Role = { Properties: { Policies: { PolicyDocument: { Statement: Statement[] } }[] } };

/** serverless.yml's document with the statements of `role` that allow `action` removed. */
function withoutAction(roleId: string, action: string): unknown {
  const doc = structuredClone(readServerlessDocument()) as { resources: { Resources: Record<string, Role> } };
  const role = doc.resources.Resources[roleId];
  if (!role) throw new Error(`serverless.yml has no ${roleId}`);
  let removed = 0;
  for (const policy of role.Properties.Policies) {
    const kept = policy.PolicyDocument.Statement.filter((s) => ![s.Action].flat().includes(action));
    removed += policy.PolicyDocument.Statement.length - kept.length;
    policy.PolicyDocument.Statement = kept;
  }
  if (removed === 0) throw new Error(`${roleId} allows no ${action}: the test would prove nothing`);
  return doc;
}

/** What the SDK made of a refused call: AWS's names, and whether it tried again. */
async function refusal(call: Promise<unknown>) {
  const error = (await call.then(
    () => undefined,
    (e: unknown) => e,
  )) as { name?: string; message?: string; $metadata?: { httpStatusCode?: number; attempts?: number } };
  return {
    name: error?.name,
    status: error?.$metadata?.httpStatusCode,
    attempts: error?.$metadata?.attempts,
    message: error?.message,
  };
}

describe('IAM on the local stack, as AWS refuses', () => {
  it("refuses each service's call its caller's role does not allow, in that service's shape, never retried", async () => {
    const hub = await startTestHub({ workers: 1 });
    hubs.push(hub);
    const { bucket, table } = { bucket: hub.stack.config.bucket, table: hub.stack.config.table };
    const queueUrl = hub.stack.config.queueUrl;

    // The split reads sources by version only (s3:GetObjectVersion): a plain GetObject is refused.
    const split = hub.principal('split').clients;
    const get = await refusal(
      split.s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'incoming/x/a.tif' })),
    );
    expect(get).toMatchObject({ name: 'AccessDenied', status: 403, attempts: 1 });
    expect(get.message).toMatch(
      /assumed-role\/SplitRole\/split is not authorized to perform: s3:GetObject on resource: arn:aws:s3:::.+\/incoming\/x\/a\.tif/,
    );
    // Its role writes under runs/ only.
    const put = await refusal(
      split.s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'tiles/escape.tif', Body: 'x' })),
    );
    expect(put).toMatchObject({ name: 'AccessDenied', status: 403, attempts: 1 });

    // The drain reads and updates the ledger; it may not scan it, nor send work.
    const drain = hub.principal('drain').clients;
    const scan = await refusal(drain.dynamodb.send(new ScanCommand({ TableName: table })));
    expect(scan).toMatchObject({ name: 'AccessDeniedException', status: 400, attempts: 1 });
    expect(scan.message).toContain('dynamodb:Scan');
    const send = await refusal(
      drain.sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: '{}' })),
    );
    expect(send).toMatchObject({ name: 'AccessDenied', status: 403, attempts: 1 });
    expect(send.message).toContain('sqs:SendMessage');

    // A missing key is 404 only to a caller allowed s3:ListBucket (on-upload's sidecar probe);
    // to one without (the enqueue reads manifests under runs/), S3 answers 403.
    const onUpload = hub.principal('on-upload').clients;
    const probe = await refusal(
      onUpload.s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'incoming/x/a.tif.job.json' })),
    );
    expect(probe).toMatchObject({ name: 'NoSuchKey', status: 404 });
    const enqueue = hub.principal('enqueue').clients;
    const manifest = await refusal(
      enqueue.s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'runs/r-none/manifest-00000.jsonl' })),
    );
    expect(manifest).toMatchObject({ name: 'AccessDenied', status: 403, attempts: 1 });
    expect(manifest.message).toContain('s3:ListBucket');
    const head = await refusal(
      enqueue.s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'runs/r-none/manifest-00000.jsonl' })),
    );
    expect(head).toMatchObject({ status: 403, attempts: 1 });

    // Refused before the stand-in: nothing was written.
    const admin = hub.principal('operator').clients;
    const escaped = await refusal(
      admin.s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'tiles/escape.tif' })),
    );
    expect(escaped.name).toBe('NoSuchKey');
    expect(hub.stack.iam?.authorizer.denied().map((d) => d.action)).toEqual(
      expect.arrayContaining(['s3:GetObject', 's3:PutObject', 'dynamodb:Scan', 'sqs:SendMessage']),
    );
  });

  it('a run under a split role without s3:GetObjectVersion ends FAILED, naming the action, as on AWS', async () => {
    const hub = await startTestHub({
      workers: 1,
      template: withoutAction('SplitRole', 's3:GetObjectVersion'),
    });
    hubs.push(hub);
    const started = await hub.upload(RGB);
    if (started.outcome !== 'started') throw new Error(`not started: ${started.outcome}`);
    const execution = await hub.executions.wait(started.executionArn);
    expect(execution.status).toBe('FAILED');
    const run = await hub.ledger.getRun(started.runId);
    expect(run?.status).toBe('FAILED');
    // S3 answers a refused HEAD with a bare 403 (no body, so no reason): the run says what was refused.
    expect(run?.reason).toMatch(
      /^HeadObject of version \S+ of s3:\/\/\S+ refused: 403 Forbidden \(the caller's role must allow s3:GetObjectVersion/,
    );
    expect(hub.stack.iam?.authorizer.denied()).toContainEqual(
      expect.objectContaining({ principal: 'split', action: 's3:GetObjectVersion' }),
    );
    // Refused at its first call: no sub-tile was planned, nothing was enqueued.
    expect(run?.counters?.total ?? 0).toBe(0);
  });
});
