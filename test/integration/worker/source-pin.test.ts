import { afterAll, describe, expect, it } from 'vitest';
import { checkProgress } from '../../../lib/coordination/check-progress.js';
import { drainRun } from '../../../lib/coordination/drain-run.js';
import { tileOutputKey } from '../../../lib/model/ids.js';
import { SourceNotFoundError } from '../../../lib/source/errors.js';
import { split } from '../../../lib/split/split.js';
import { ObjectVersionGoneError } from '../../../lib/store/errors.js';
import { findFiles } from '../../support/find-files.js';
import { createFixture, enqueueTiles, type Fixture, seedRun, tileStates } from '../../support/run-fixture.js';
import { stackClients } from '../../support/stack-clients.js';
import { gdalTileCover } from '../../support/tile-oracle.js';
import { spawnWorker, trackWorkers } from '../../support/worker-harness.js';

// A run reads the source version its upload announced (the S3 event's ETag), never a later one.
// s3rver has no object versions, so reads are pinned by ETag with If-Match (patched into s3rver,
// which ignored it: patches/s3rver+3.7.1.patch), as on an unversioned bucket.
const { config, clients, env, ledger, store } = stackClients();
const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const SHADE = new URL('../../../examples/raster/shade.tif', import.meta.url).pathname;
const workers = trackWorkers();
afterAll(() => clients.destroy());

const GONE =
  /^source s3:\/\/\S+ \(ETag [0-9a-f]+\) was overwritten or deleted after the run started: its bytes are gone; upload the file again to start a new run$/;

/** Runs a worker over what is queued until it idles; returns it. */
async function work(fixture: Fixture, overrides: Record<string, string> = {}) {
  const worker = spawnWorker(env, { ...fixture.env, ...overrides });
  workers.push(worker);
  expect((await worker.exited).code).toBe(0);
  return worker;
}

describe.each([
  ['ranged', 'GDAL’s ranged reads (If-Match on every GET)', {}, undefined],
  ['cached', 'the cached copy (a pinned download)', {}, undefined],
  // The default: RGB.byte.tif (1.7 MB) is under auto's limit, so a copy; under a limit of 1 MB, ranges.
  ['auto', 'the default, a copy of a source this small', {}, 'cached'],
  [
    'auto',
    'the default, ranges for a source over its limit',
    { GEOHUB_SOURCE_CACHE_MAX_BYTES: '1000000' },
    'ranged',
  ],
] as const)('pinned source, %s access: %s', (access, _what, limits, chosen) => {
  it('reads the upload’s version; once it is overwritten the run drains and fails with one line', async () => {
    const fixture = await createFixture(config, clients);
    const tiles = gdalTileCover(RGB, 8);
    const run = await seedRun(fixture, [RGB], tiles);
    const [first, ...rest] = run.tasks;

    // The source as uploaded: pinned reads succeed.
    await enqueueTiles(fixture, run.runId, [first!]);
    const reader = await work(fixture, { GEOHUB_SOURCE_ACCESS: access, ...limits });
    expect((await tileStates(fixture.ledger, run.runId)).get(first!.id)?.state).toBe('DONE');
    const choices = reader.logs.filter((l) => l.msg === 'source access chosen');
    if (chosen) expect(choices).toMatchObject([{ runId: run.runId, sourceAccess: chosen }]);
    else expect(choices).toEqual([]);

    // A re-upload under the same key: other bytes, another ETag.
    await fixture.store.putFile(run.sourceKey, SHADE);
    await enqueueTiles(fixture, run.runId, rest);
    const worker = await work(fixture, { GEOHUB_SOURCE_ACCESS: access, ...limits });

    const after = await fixture.ledger.getRun(run.runId);
    expect(after?.status).toBe('DRAINING');
    expect(after?.reason).toMatch(GONE);
    expect(after?.reason).toContain(run.sourceKey);
    // No tile was made from the new bytes; none counted as a data failure or retried.
    const states = await tileStates(fixture.ledger, run.runId);
    for (const task of rest) {
      expect(states.get(task.id)?.state, task.id).toBe('PARKED');
      expect(await fixture.store.head(tileOutputKey(run.runId, task))).toBeUndefined();
    }
    expect(after?.counters).toMatchObject({ done: 1, failed: 0, retried: 0, parked: rest.length });
    expect(findFiles(worker.scratch, (n) => n.endsWith('.part'))).toEqual([]);

    // The coordinator's next turn: drain, and the run ends FAILED with that one line.
    const progress = await checkProgress(
      {
        ledger,
        queue: fixture.queue,
        deadLetters: fixture.queue,
        breaker: { minSample: 10, failureRatio: 0.5 },
        loopEventBudget: 15_000,
      },
      run.runId,
    );
    expect(progress.decision).toBe('BREAKER_OPEN');
    expect((await drainRun({ ledger, maxDrainMs: 5_000 }, run.runId, null)).drained).toBe(true);
    const failed = await ledger.getRun(run.runId);
    expect(failed?.status).toBe('FAILED');
    expect(failed?.reason).toMatch(GONE);
    expect(failed?.reason).not.toContain('\n');
  });
});

describe('pinned reads outside the worker', () => {
  it('split refuses a source whose version is gone, in one line', async () => {
    const fixture = await createFixture(config, clients);
    const key = `incoming/pin-${Date.now()}/RGB.byte.tif`;
    const head = await fixture.store.putFile(key, RGB);
    const etag = head.etag.replace(/"/g, '');
    await fixture.store.putFile(key, SHADE); // re-uploaded before the split ran
    const request = {
      source: { bucket: fixture.store.bucket, key, version: etag, etag },
      params: {},
    };
    const attempt = split(request, { store: fixture.store, ledger: fixture.ledger });
    await expect(attempt).rejects.toBeInstanceOf(SourceNotFoundError);
    await expect(attempt).rejects.toThrow(
      new RegExp(
        `^s3://\\S+/${key.replace(/\./g, '\\.')} was overwritten or deleted after its upload \\(ETag ${etag}\\): upload it again$`,
      ),
    );
  });

  it('the store answers a pinned read of another version with ObjectVersionGoneError, and a head with nothing', async () => {
    const key = `incoming/pin-${Date.now()}/RGB.byte.tif`;
    const head = await store.putFile(key, RGB);
    const etag = head.etag.replace(/"/g, '');
    expect((await store.getRange(key, 0, 3, { pin: { etag } })).length).toBe(4);
    await store.putFile(key, SHADE);
    await expect(store.getRange(key, 0, 3, { pin: { etag } })).rejects.toBeInstanceOf(ObjectVersionGoneError);
    expect(await store.head(key, { pin: { etag } })).toBeUndefined();
    expect(await store.head(key)).toBeDefined();
  });
});
