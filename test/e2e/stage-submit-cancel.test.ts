import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { awsEnvFor } from '../../local/hub/control-plane/hub-control-plane.js';
import type { LocalHub } from '../../local/hub/local-hub.js';
import { OPERATOR } from '../../local/iam/local-iam.js';
import { OPERATOR_POLICY } from '../../local/iam/operator-policy.js';
import { readServerlessDocument } from '../../local/stack/serverless-document.js';
import { ADMINISTRATOR } from '../../local/stack/stack.js';
import { startCli } from '../support/cli.js';
import { startHoldProxy } from '../support/hold-proxy.js';
import { startTestHub } from '../support/hub.js';
import { s3rverDirectory } from '../support/s3rver-directory.js';
import { tempDir } from '../support/temp-dir.js';
import { waitUntil } from '../support/wait-until.js';

// Ctrl-C during `geohub submit --stage`, sent as a terminal sends it (to the whole process
// group), while a part is in flight: held by a pass-through in front of S3, as a stalled network
// holds it, so the signal lands mid-transfer every time. Nothing may be left: no multipart
// upload (its parts are billed until the bucket's lifecycle rule, 7 days), no job sidecar.
const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
let hub: LocalHub;
let env: Record<string, string>;
let bucket: string;

beforeAll(async () => {
  // The operator may read their own data (their own policy, not the stack's).
  const doc = structuredClone(readServerlessDocument()) as {
    resources: { Resources: Record<string, { Properties: { PolicyDocument: { Statement: unknown[] } } }> };
  };
  doc.resources.Resources[OPERATOR_POLICY]!.Properties.PolicyDocument.Statement.push({
    Sid: 'OwnSurveyData',
    Effect: 'Allow',
    Action: 's3:GetObject',
    Resource: 'arn:aws:s3:::survey-data/*',
  });
  hub = await startTestHub({ workers: 1, controlPlane: true, template: doc });
  await hub.principal(ADMINISTRATOR).clients.s3.send(new CreateBucketCommand({ Bucket: 'survey-data' }));
  env = { ...awsEnvFor(hub.stack, hub.controlPlane!, OPERATOR), AWS_PROFILE: '' };
  bucket = hub.principal(OPERATOR).config.bucket;
});
afterAll(async () => {
  await hub?.stop();
});

/** `geohub submit … --stage local` in a process group of its own, S3 reached through `proxy`. */
function submit(args: string[], s3Endpoint: string) {
  const cli = startCli(
    ['submit', ...args, '--stage', 'local', '--json'],
    {
      ...env,
      AWS_ENDPOINT_URL_S3: s3Endpoint,
    },
    { detached: true },
  );
  onTestFinished(() => {
    if (cli.child.exitCode === null && cli.child.signalCode === null)
      process.kill(-cli.child.pid!, 'SIGKILL');
  });
  return cli;
}

const isPart = (url: string) => /[?&]partNumber=\d+/.test(url) && /[?&]uploadId=/.test(url);
const uploadIdOf = (url: string) => new URL(url, 'http://x').searchParams.get('uploadId')!;

/** The state of the bucket afterwards: nothing under incoming/, and the upload gone for good. */
async function expectNothingLeft(uploadId: string, key: string) {
  const admin = hub.principal(ADMINISTRATOR).clients.s3;
  const listed = await admin.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'incoming/' }));
  expect((listed.Contents ?? []).map((o) => o.Key)).toEqual([]);
  // A part sent now is refused: no upload of that id is left to hold parts.
  const late = admin.send(
    new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: 9, Body: 'x' }),
  );
  await expect(late).rejects.toMatchObject({ name: 'NoSuchUpload' });
}

describe('Ctrl-C during geohub submit on a stage leaves nothing in the bucket', () => {
  it('a file: its part in flight given up, the upload aborted, the sidecar removed, exit 130', async () => {
    const file = join(tempDir('geohub-submit-cancel-'), 'survey.tif');
    writeFileSync(file, '');
    truncateSync(file, 40 * MiB); // three parts of 16 MiB, the CLI's own part size
    const proxy = await startHoldProxy(env.AWS_ENDPOINT_URL_S3!, (req) =>
      Boolean(req.method === 'PUT' && isPart(req.url ?? '') && /[?&]partNumber=2(&|$)/.test(req.url ?? '')),
    );
    onTestFinished(() => proxy.close());
    const cli = submit([file, '--zoom', '9'], proxy.endpoint);
    expect(await waitUntil(() => proxy.seen.some((r) => r.held), 120_000)).toBe(true);
    const held = proxy.seen.find((r) => r.held)!;
    // The first part went through: the Ctrl-C lands in the middle of the upload.
    expect(proxy.seen.filter((r) => isPart(r.url) && r.status === 200)).toHaveLength(1);
    process.kill(-cli.child.pid!, 'SIGINT');
    const r = await cli.done;
    expect(r.code, r.stderr).toBe(130);
    // One line besides the progress lines, and no other: the SDK adds none.
    const said = r.stderr
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('uploading: '));
    expect(said).toEqual([
      expect.stringMatching(
        new RegExp(
          `^geohub: cancelled: nothing is left of the upload to s3://${bucket}/incoming/\\d+/survey\\.tif$`,
        ),
      ),
    ]);
    expect(held.closed).toBe(true);
    const uploadId = uploadIdOf(held.url);
    const aborts = proxy.seen.filter((s) => s.method === 'DELETE' && s.url.includes(`uploadId=${uploadId}`));
    expect(aborts.map((s) => s.status)).toEqual([204]);
    // The sidecar (written before the upload, so that its event finds the job) removed.
    const sidecar = proxy.seen.filter((s) => s.method === 'DELETE' && s.url.includes('.job.json'));
    expect(sidecar.map((s) => s.status)).toEqual([204]);
    await expectNothingLeft(
      uploadId,
      decodeURIComponent(new URL(held.url, 'http://x').pathname.split('/').slice(2).join('/')),
    );
  });

  it('an object over 5 GiB: copied in parts of 512 MiB, four at a time; Ctrl-C aborts the copy', async () => {
    // A sparse 6 GiB object (S3's copy limit is 5 GiB): its size is the file's, no byte written.
    const admin = hub.principal(ADMINISTRATOR).clients.s3;
    await admin.send(new PutObjectCommand({ Bucket: 'survey-data', Key: 'orthos/mosaic.tif', Body: 'x' }));
    truncateSync(
      join(s3rverDirectory(hub.stack.pids), 'survey-data', 'orthos/mosaic.tif._S3rver_object'),
      6 * GiB,
    );
    const proxy = await startHoldProxy(env.AWS_ENDPOINT_URL_S3!, (req) =>
      Boolean(req.method === 'PUT' && isPart(req.url ?? '') && req.headers['x-amz-copy-source']),
    );
    onTestFinished(() => proxy.close());
    const cli = submit(['s3://survey-data/orthos/mosaic.tif', '--zoom', '9'], proxy.endpoint);
    expect(await waitUntil(() => proxy.seen.filter((r) => r.held).length >= 4, 120_000)).toBe(true);
    const held = proxy.seen.filter((r) => r.held);
    // The production plan: 512 MiB parts (12 for 6 GiB), four in flight and no fifth started.
    expect(held).toHaveLength(4);
    expect(held.map((r) => Number(new URL(r.url, 'http://x').searchParams.get('partNumber'))).sort()).toEqual(
      [1, 2, 3, 4],
    );
    const first = held.find((h) => h.url.includes('partNumber=1'))!;
    expect(first.headers['x-amz-copy-source-range']).toBe(`bytes=0-${512 * MiB - 1}`);
    process.kill(-cli.child.pid!, 'SIGINT');
    const r = await cli.done;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(
      /^geohub: cancelled: nothing is left of the upload to s3:\/\/\S+\/mosaic\.tif$/m,
    );
    expect(held.every((h) => h.closed)).toBe(true);
    const uploadId = uploadIdOf(held[0]!.url);
    const aborts = proxy.seen.filter((s) => s.method === 'DELETE' && s.url.includes(`uploadId=${uploadId}`));
    expect(aborts.map((s) => s.status)).toEqual([204]);
    await expectNothingLeft(
      uploadId,
      decodeURIComponent(new URL(held[0]!.url, 'http://x').pathname.split('/').slice(2).join('/')),
    );
  });
});
