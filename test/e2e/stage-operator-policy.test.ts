import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { runIdFor } from '../../lib/model/ids.js';
import { copyObject } from '../../lib/store/s3-copy.js';
import { awsEnvFor } from '../../local/hub/control-plane/hub-control-plane.js';
import { incomingKey } from '../../local/hub/incoming-key.js';
import type { LocalHub } from '../../local/hub/local-hub.js';
import { OPERATOR } from '../../local/iam/local-iam.js';
import { OPERATOR_POLICY } from '../../local/iam/operator-policy.js';
import { readServerlessDocument } from '../../local/stack/serverless-document.js';
import { ADMINISTRATOR } from '../../local/stack/stack.js';
import { runCli } from '../support/cli.js';
import { startTestHub } from '../support/hub.js';
import { seedLedgerRun } from '../support/ledger-run.js';
import { tempDir } from '../support/temp-dir.js';
import { waitUntil } from '../support/wait-until.js';

// Each statement of the stack's operator policy, removed in turn: the CLI step that needs it
// fails, in one line that names the permission. A statement no step needs would be a grant
// nobody uses; a step that needs more than the policy fails stage-operator.test.ts.
const RGB = new URL('../../examples/raster/RGB.byte.tif', import.meta.url).pathname;

type Statement = { Sid: string; Action: string | string[]; Effect?: string; Resource?: unknown };
type Doc = {
  resources: { Resources: Record<string, { Properties: { PolicyDocument: { Statement: Statement[] } } }> };
};

/** What a step needs before it runs: nothing, a finished run, or a run whose execution never started. */
type Needs = 'nothing' | 'finished run' | 'idle run';
const STEPS: Record<string, { needs: Needs; args: (runId: string) => string[] }> = {
  FindStack: { needs: 'nothing', args: () => ['status'] },
  Upload: { needs: 'nothing', args: () => ['submit', RGB, '--zoom', '5'] },
  // A source it may not read fails the copy after the job's sidecar was written: it is removed.
  WithdrawSidecar: { needs: 'nothing', args: () => ['submit', 's3://survey-data/absent.tif', '--zoom', '5'] },
  ReadOutputs: {
    needs: 'finished run',
    args: (runId) => ['get', runId, '--out', join(tempDir('geohub-policy-'), 'o')],
  },
  ListOutputs: { needs: 'finished run', args: (runId) => ['verify', runId] },
  ReadRuns: { needs: 'finished run', args: (runId) => ['status', runId] },
  CancelIdleRun: { needs: 'idle run', args: (runId) => ['cancel', runId] },
  QueueDepths: { needs: 'nothing', args: () => ['status'] },
  StopRuns: { needs: 'finished run', args: (runId) => ['status', runId] },
  Redrive: { needs: 'nothing', args: () => ['redrive'] },
};

const statements = () =>
  (readServerlessDocument() as Doc).resources.Resources[OPERATOR_POLICY]!.Properties.PolicyDocument.Statement;

/** serverless.yml with one statement of the operator policy left out. */
function without(sid: string): unknown {
  const doc = structuredClone(readServerlessDocument()) as Doc;
  const policy = doc.resources.Resources[OPERATOR_POLICY]!.Properties.PolicyDocument;
  policy.Statement = policy.Statement.filter((s) => s.Sid !== sid);
  return doc;
}

async function prepare(hub: LocalHub, needs: Needs): Promise<string> {
  if (needs === 'idle run') return (await seedLedgerRun(hub.principal(ADMINISTRATOR).ledger, 1, 16)).runId;
  if (needs === 'nothing') return '';
  const started = await hub.upload(RGB, { job: { zoom: 5 } });
  if (started.outcome !== 'started') throw new Error(`not started: ${JSON.stringify(started)}`);
  await hub.executions.wait(started.executionArn);
  return started.runId;
}

describe('the operator policy: every statement is needed by a step of the CLI on a stage', () => {
  it('names a step for every statement of the template’s policy', () => {
    expect(
      statements()
        .map((s) => s.Sid)
        .sort(),
    ).toEqual(Object.keys(STEPS).sort());
  });

  for (const [sid, step] of Object.entries(STEPS)) {
    it(`without ${sid}, a step fails in one line naming the permission`, async () => {
      const statement = statements().find((s) => s.Sid === sid)!;
      const actions = [statement.Action].flat();
      const hub = await startTestHub({ workers: 1, controlPlane: true, template: without(sid) });
      try {
        const runId = await prepare(hub, step.needs);
        const env = { ...awsEnvFor(hub.stack, hub.controlPlane!, OPERATOR), AWS_PROFILE: '' };
        const r = await runCli([...step.args(runId), '--stage', 'local'], env);
        expect(r.code, r.stdout).toBe(1);
        const lines = r.stderr.trim().split('\n');
        expect(lines, r.stderr).toHaveLength(1);
        expect(lines[0]).toMatch(
          new RegExp(`^geohub: stage local: .*missing permission (${actions.join('|')}) on arn:aws:`),
        );
      } finally {
        await hub.stop();
      }
    });
  }

  // A source already in S3 is copied server-side: the operator's identity needs to read it (their
  // own policy for their data, not the stack's), and is told in one line when it may not.
  it('submit s3://… copies a readable source and runs it (in parts past the copy limit); an unreadable one is one line naming the read', async () => {
    const doc = structuredClone(readServerlessDocument()) as Doc;
    doc.resources.Resources[OPERATOR_POLICY]!.Properties.PolicyDocument.Statement.push({
      Sid: 'OwnSurveyData',
      Effect: 'Allow',
      Action: 's3:GetObject',
      Resource: 'arn:aws:s3:::survey-data/granted/*',
    } as Statement);
    const hub = await startTestHub({ workers: 1, controlPlane: true, template: doc });
    try {
      const admin = hub.principal(ADMINISTRATOR).clients.s3;
      await admin.send(new CreateBucketCommand({ Bucket: 'survey-data' }));
      for (const key of ['granted/RGB.byte.tif', 'private/RGB.byte.tif'])
        await admin.send(new PutObjectCommand({ Bucket: 'survey-data', Key: key, Body: readFileSync(RGB) }));
      const env = { ...awsEnvFor(hub.stack, hub.controlPlane!, OPERATOR), AWS_PROFILE: '' };
      const r = await runCli(
        ['submit', 's3://survey-data/granted/RGB.byte.tif', '--zoom', '7', '--stage', 'local', '--json'],
        env,
      );
      expect(r.code, r.stderr).toBe(0);
      const { runId, outcome } = JSON.parse(r.stdout) as { runId: string; outcome: string };
      expect(outcome).toBe('started');
      const run = await hub.ledger.getRun(runId);
      await hub.executions.wait(run!.executionArn!);
      expect((await hub.ledger.getRun(runId))?.status).toBe('SUCCEEDED');
      expect(run!.source.key).toMatch(/^incoming\/\d+\/RGB\.byte\.tif$/);
      const refused = await runCli(
        ['submit', 's3://survey-data/private/RGB.byte.tif', '--stage', 'local'],
        env,
      );
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim()).toBe(
        "geohub: stage local: missing permission s3:GetObject on arn:aws:s3:::survey-data/private/RGB.byte.tif: attach the stack's operator policy (its output OperatorPolicyArn) to your identity",
      );
      // Past one CopyObject's limit (lowered here: a source over 5 GiB), the copy goes in parts
      // under the same grants, and its completion's event starts the run as an upload's does.
      const operator = hub.principal(OPERATOR);
      const key = incomingKey('RGB.byte.tif');
      const parts = { maxCopyBytes: 256 * 1024, partBytes: 256 * 1024 };
      const from = { bucket: 'survey-data', key: 'granted/RGB.byte.tif' };
      const copied = await copyObject(
        operator.clients.s3,
        from,
        { bucket: operator.config.bucket, key },
        parts,
      );
      expect(copied.etag).toMatch(/-\d+"$/);
      expect(copied.bytes).toBe(readFileSync(RGB).length);
      const version = copied.versionId ?? copied.etag.replace(/"/g, '');
      const partsRun = runIdFor({ bucket: operator.config.bucket, key, version });
      const started = async () => Boolean((await hub.ledger.getRun(partsRun))?.executionArn);
      expect(await waitUntil(started, 60_000)).toBe(true);
      await hub.executions.wait((await hub.ledger.getRun(partsRun))!.executionArn!);
      expect((await hub.ledger.getRun(partsRun))?.status).toBe('SUCCEEDED');
    } finally {
      await hub.stop();
    }
  });
});
