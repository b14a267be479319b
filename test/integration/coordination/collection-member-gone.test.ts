import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRunMembers } from '../../../lib/collection/run-members.js';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import { ADMINISTRATOR } from '../../../local/stack/stack.js';
import { startTestHub } from '../../support/hub.js';
import { tempDir } from '../../support/temp-dir.js';
import { waitUntil } from '../../support/wait-until.js';

const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;

let hub: LocalHub;
beforeAll(async () => {
  // One worker: the metatiles are taken in the manifest's order, top rows first, so the bottom
  // quarter is read only after the top rows are done.
  hub = await startTestHub({ workers: 1 });
});
afterAll(async () => {
  await hub?.stop();
});

describe('a collection whose member changes during the run (issue 38)', () => {
  it('drains and fails with one line naming the member, as a changed single source does', async () => {
    const dir = tempDir('geohub-halves-');
    const top = join(dir, 'top.tif');
    const bottom = join(dir, 'bottom.tif');
    execFileSync('gdal_translate', ['-q', '-srcwin', '0', '0', '791', '359', RGB, top]);
    execFileSync('gdal_translate', ['-q', '-srcwin', '0', '359', '791', '359', RGB, bottom]);
    const started = await hub.uploadCollection([top, bottom], {
      name: 'halves',
      sizes: [0, 0],
      job: { zoom: 12 },
    });
    if (started.outcome !== 'started') throw new Error(`not started: ${started.outcome}`);
    const runId = started.runId;
    const done = async () => (await hub.ledger.getRun(runId))?.counters.done ?? 0;
    expect(await waitUntil(async () => (await done()) > 0, 120_000)).toBe(true);

    // The bottom member, not yet read by the worker (no metatile over it touched), is deleted.
    const list = await readRunMembers(hub.store, runId);
    const member = list!.members[1]!;
    expect(member.key).toMatch(/\/bottom\.tif$/);
    const touched = async () => {
      for await (const record of hub.ledger.listMetatiles(runId))
        if (record.members?.includes(1)) return true;
      return false;
    };
    expect(await touched(), 'the worker reached the bottom member before the test could delete it').toBe(
      false,
    );
    await hub
      .principal(ADMINISTRATOR)
      .clients.s3.send(
        new DeleteObjectCommand({ Bucket: hub.store.bucket, Key: member.key, VersionId: member.version }),
      );

    const execution = await hub.executions.wait(started.executionArn);
    const after = await hub.ledger.getRun(runId);
    expect(execution.status, JSON.stringify(after)).toBe('FAILED');
    expect(after?.status).toBe('FAILED');
    expect(after?.reason).toMatch(
      new RegExp(
        `^source s3://\\S+/${member.key.replace(/[.]/g, '\\.')} .* was overwritten or deleted after the run started`,
      ),
    );
    // Not a data failure counted tile by tile: the metatiles over the bottom half were stopped.
    expect(after?.counters.failed).toBe(0);
  });
});
