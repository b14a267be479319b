import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { tileIdFor } from '../../../lib/model/ids.js';
import { type Metatile, metatileOf } from '../../../lib/model/metatile.js';
import { runStory } from '../../../local/server/page/run-story.js';
import { claimAs } from '../../support/ledger-run.js';
import { stackClients } from '../../support/stack-clients.js';

const { config, ledger, destroy } = stackClients();
afterAll(() => destroy());

const LEASE_MS = 60_000;

describe("the run story's redone work and interruptions, from the ledger (issue 19)", () => {
  it('counts the sub-tiles of metatiles taken more than once, the extra attempts and the interruptions', async () => {
    const runId = `r-story-${randomUUID().slice(0, 12)}`;
    await ledger.createRun({
      runId,
      status: 'RUNNING',
      source: { bucket: config.bucket, key: `incoming/${runId}.tif`, version: 'e', etag: 'e' },
      operation: 'raster-xyz',
      params: {},
      paramsVersion: 'v1',
      total: 7,
    });
    const block = (xs: number[]) =>
      metatileOf(
        xs.map((x) => ({ id: tileIdFor(runId, 'raster-xyz', 'v1', { z: 10, x, y: 1 }), z: 10, x, y: 1 })),
      );
    const done = async (m: Metatile, owner: string) =>
      (await claimAs(ledger, runId, m, owner, LEASE_MS)).markDone(
        new Map(m.tiles.map((t) => [t.id, { key: `tiles/${t.id}.tif`, etag: 'x', bytes: 1 }])),
        10,
      );
    const [interruptedOnce, failedThenInterrupted, firstTime] = [
      block([0, 1, 2, 3]),
      block([4, 5]),
      block([6]),
    ];
    // Four sub-tiles: a spot reclaim, then done on the second attempt.
    await (await claimAs(ledger, runId, interruptedOnce, 'w1', LEASE_MS)).release({
      state: 'QUEUED',
      interrupted: true,
    });
    await done(interruptedOnce, 'w2');
    // Two sub-tiles: a retryable failure, an interruption, done on the third attempt.
    await (await claimAs(ledger, runId, failedThenInterrupted, 'w1', LEASE_MS)).release({
      state: 'QUEUED',
      error: { class: 'TileRetryableError', message: 'GDAL read timed out' },
    });
    await (await claimAs(ledger, runId, failedThenInterrupted, 'w2', LEASE_MS)).release({
      state: 'QUEUED',
      interrupted: true,
    });
    await done(failedThenInterrupted, 'w3');
    // One sub-tile, done at once: not redone.
    await done(firstTime, 'w1');

    const story = await runStory(ledger, (await ledger.getRun(runId))!);
    expect(story).toMatchObject({
      runId,
      redone: { tiles: 6, attempts: 1 + 2 },
      interruptions: 2,
      scanned: 3,
      partial: false,
    });
    expect(story.progress.at(-1)![1]).toBe(7);
    // The run's own counters agree: two interruptions, one retried attempt (of two sub-tiles).
    expect((await ledger.getRun(runId))!.counters).toMatchObject({ done: 7, interrupted: 6, retried: 2 });
  });
});
