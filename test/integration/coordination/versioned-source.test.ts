import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import { expectSucceeded } from '../../support/expect-succeeded.js';
import { startTestHub } from '../../support/hub.js';

const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
let hub: LocalHub;
beforeAll(async () => {
  hub = await startTestHub();
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
});
