import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import { ADMINISTRATOR } from '../../../local/stack/stack.js';
import { expectSucceeded } from '../../support/expect-succeeded.js';
import { startTestHub } from '../../support/hub.js';
import { waitUntil } from '../../support/wait-until.js';

const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
let hub: LocalHub;
beforeAll(async () => {
  // Ranged reads: every tool reads the bucket, so a source deleted mid-run is met by the next one
  // (a worker's cached copy would finish the run from the bytes it already has).
  hub = await startTestHub({ workerEnv: { GEOHUB_SOURCE_ACCESS: 'ranged' } });
});
afterAll(async () => {
  await hub?.stop();
});

describe('a run whose source is a version of an object in the versioned bucket, under IAM', () => {
  it('reads the source by its version id (s3:GetObjectVersion) and ends SUCCEEDED', async () => {
    const started = await hub.upload(RGB);
    if (started.outcome !== 'started') throw new Error(`not started: ${started.outcome}`);
    const execution = await hub.executions.wait(started.executionArn);
    expectSucceeded(execution);
    const run = await hub.ledger.getRun(started.runId);
    // The upload's event named a version (the template enables versioning), and the run is pinned to it.
    expect(run?.source.version).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(run?.source.version).not.toBe(run?.source.etag);
    const iam = hub.stack.iam;
    if (!iam) throw new Error('the hub runs without IAM');
    const source = `arn:aws:s3:::${run?.source.bucket}/${run?.source.key}`;
    const allowed = iam.authorizer.allowed().filter((a) => a.resource === source);
    expect(allowed).toContainEqual({ principal: 'split', action: 's3:GetObjectVersion', resource: source });
    expect(iam.authorizer.denied()).toEqual([]);
  });

  // Catches: a worker role without s3:ListBucket. S3 then answers the HEAD of the deleted version
  // 403, not 404: the worker cannot tell "gone" from "refused", and the run fails tile by tile
  // (breaker, retries) instead of draining at once with the one line that says why.
  it('a source version deleted mid-run: the run drains and fails with one line naming it', async () => {
    const started = await hub.upload(RGB, { job: { zoom: 12 } });
    if (started.outcome !== 'started') throw new Error(`not started: ${started.outcome}`);
    const done = async () => (await hub.ledger.getRun(started.runId))?.counters.done ?? 0;
    expect(await waitUntil(async () => (await done()) > 0, 60_000)).toBe(true);
    const run = await hub.ledger.getRun(started.runId);
    await hub.principal(ADMINISTRATOR).clients.s3.send(
      new DeleteObjectCommand({
        Bucket: run!.source.bucket,
        Key: run!.source.key,
        VersionId: run!.source.version,
      }),
    );
    const execution = await hub.executions.wait(started.executionArn);
    const after = await hub.ledger.getRun(started.runId);
    expect(execution.status, JSON.stringify(after)).toBe('FAILED');
    expect(after?.status).toBe('FAILED');
    expect(after?.reason).toMatch(
      /^source s3:\/\/\S+ .* was overwritten or deleted after the run started: its bytes are gone/,
    );
    expect(after?.counters.done).toBeLessThan(after!.counters.total);
    // Gone, not a data failure: nothing was counted against the breaker for it.
    expect(after?.counters.failed).toBe(0);
  });
});
