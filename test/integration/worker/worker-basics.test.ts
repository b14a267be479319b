import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, it } from 'vitest';
import { findFiles } from '../../support/find-files.js';
import { createFixture, enqueueTiles, seedRun, tileStates } from '../../support/run-fixture.js';
import { stackClients } from '../../support/stack-clients.js';
import { tempDir } from '../../support/temp-dir.js';
import { gdalTileCover } from '../../support/tile-oracle.js';
import { spawnWorker, trackWorkers } from '../../support/worker-harness.js';

const { config, clients, env } = stackClients();
const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const workers = trackWorkers();
afterAll(() => clients.destroy());

describe('the worker processes sub-tiles for real', () => {
  it('turns every sub-tile of a run into a 256×256 EPSG:3857 DEFLATE GeoTIFF, object first, marker second', async () => {
    const fixture = await createFixture(config, clients);
    const tiles = gdalTileCover(RGB, 8);
    const run = await seedRun(fixture, [RGB], tiles);
    await enqueueTiles(fixture, run.runId, run.tasks, 2);

    const worker = spawnWorker(env, fixture.env);
    workers.push(worker);
    expect((await worker.exited).code).toBe(0); // idle exit once the queue is empty

    const states = await tileStates(fixture.ledger, run.runId);
    expect([...states.values()].map((t) => t.state)).toEqual(tiles.map(() => 'DONE'));
    const meta = await fixture.ledger.getRun(run.runId);
    expect(meta?.counters.done).toBe(tiles.length);

    const out = tempDir('geohub-tiles-');
    for (const tile of states.values()) {
      const head = await fixture.store.head(tile.output!.key);
      expect(head?.etag).toBe(tile.output!.etag);
      expect(head?.bytes).toBe(tile.output!.bytes);
      const local = join(out, `${tile.tileId}.tif`);
      await fixture.store.download(tile.output!.key, local);
      const info = JSON.parse(execFileSync('gdalinfo', ['-json', local], { encoding: 'utf8' }));
      expect(info.size).toEqual([256, 256]);
      expect(info.metadata?.IMAGE_STRUCTURE?.COMPRESSION).toBe('DEFLATE');
      expect(info.coordinateSystem.wkt).toContain('"EPSG",3857');
    }
    expect(worker.toolStarts().size).toBe(tiles.length);
    expect(findFiles(worker.scratch, (n) => n.endsWith('.part'))).toEqual([]);
  });

  it('a metatile of 16 sub-tiles uploads them at once without a listener-leak warning on stderr', async () => {
    const fixture = await createFixture(config, clients);
    const tiles = gdalTileCover(RGB, 10).slice(0, 16);
    const run = await seedRun(fixture, [RGB], tiles);
    await enqueueTiles(fixture, run.runId, run.tasks, 16);
    const worker = spawnWorker(env, fixture.env);
    workers.push(worker);
    expect((await worker.exited).code).toBe(0);
    const states = await tileStates(fixture.ledger, run.runId);
    expect([...states.values()].map((t) => t.state)).toEqual(tiles.map(() => 'DONE'));
    // All 16 requests listen to the metatile's one cancellation signal.
    expect(worker.text.filter((line) => line.includes('MaxListenersExceededWarning'))).toEqual([]);
  });

  it('fails a corrupt source terminally with a clear reason, and keeps serving the other run', async () => {
    const fixture = await createFixture(config, clients);
    const dir = tempDir('geohub-corrupt-');
    const truncated = join(dir, 'truncated.tif');
    writeFileSync(truncated, readFileSync(RGB).subarray(0, 20_000));
    const bad = await seedRun(fixture, [truncated], gdalTileCover(RGB, 7));
    const good = await seedRun(fixture, [RGB], gdalTileCover(RGB, 7));
    await enqueueTiles(fixture, bad.runId, bad.tasks);
    await enqueueTiles(fixture, good.runId, good.tasks);
    // And a body no worker could ever process.
    await fixture.queue.sendBatch(['{"v":1,"runId":"../../etc","tiles":"-oops"}']);

    const worker = spawnWorker(env, fixture.env);
    workers.push(worker);
    expect((await worker.exited).code).toBe(0);

    const badStates = [...(await tileStates(fixture.ledger, bad.runId)).values()];
    expect(badStates.length).toBe(bad.tasks.length);
    for (const t of badStates) {
      expect(t.state).toBe('FAILED');
      expect(t.error?.class).toBe('TileDataError');
      expect(t.error?.message).toMatch(/exited with \d+: .*warp-metatile: .*TIFF/);
      expect(t.attempts).toBe(1); // terminal: never retried
    }
    const goodStates = [...(await tileStates(fixture.ledger, good.runId)).values()];
    expect(goodStates.map((t) => t.state)).toEqual(good.tasks.map(() => 'DONE'));
    expect((await fixture.ledger.getRun(bad.runId))?.counters.failed).toBe(bad.tasks.length);

    const dead = await clients.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: fixture.dlqUrl,
        MaxNumberOfMessages: 10,
        MessageAttributeNames: ['All'],
      }),
    );
    expect(dead.Messages).toHaveLength(1);
    expect(dead.Messages?.[0]?.MessageAttributes?.reason?.StringValue).toMatch(/invalid message/);
  });
});
