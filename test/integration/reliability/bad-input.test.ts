import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTiles } from '../../../lib/ledger/tile-records.js';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import { ADMINISTRATOR } from '../../../local/stack/stack.js';
import { startTestHub } from '../../support/hub.js';
import { tempDir } from '../../support/temp-dir.js';
import { baselineTags, tiffBytes } from '../../support/tiff-bytes.js';
import { waitUntil } from '../../support/wait-until.js';

const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const fixture = (p: string) => new URL(`../../fixtures/${p}`, import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'geohub-bad-'));
const file = (name: string, bytes: Uint8Array | string) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};
let hub: LocalHub;
beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(async () => {
  await hub?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Uploads through the trigger, waits for the execution, returns the run as recorded. */
async function runOf(path: string, options: Parameters<LocalHub['upload']>[1] = {}) {
  const started = await hub.upload(path, options);
  if (started.outcome === 'ignored') throw new Error(started.reason);
  if (started.outcome !== 'rejected') await hub.executions.wait(started.executionArn);
  const run = await hub.ledger.getRun(started.runId);
  return { started, run };
}

describe('bad input gets a clear, recorded error and loses nothing else', () => {
  it.each([
    ['a zero-byte file', () => file('empty.tif', ''), /empty \(0 bytes\)/],
    [
      'a text file named .tif',
      () => file('notes.tif', 'these are not pixels\n'.repeat(20)),
      /neither a GeoTIFF nor a LAS/,
    ],
    ['a truncated GeoTIFF', () => file('truncated.tif', readFileSync(RGB).subarray(0, 50_000)), /truncated/],
    ['a raster without a CRS', () => fixture('raster/no-crs.tif'), /no (coordinate reference system|CRS)/i],
    [
      'a header claiming absurd dimensions',
      () => file('huge.tif', tiffBytes(baselineTags(1_000_000_000, 1_000_000_000))),
      /1000000000|1,000,000,000|implausible|too large/i,
    ],
  ])('%s: the run FAILS with the reason recorded', async (_name, make, reason) => {
    const { run } = await runOf(make());
    expect(run?.status).toBe('FAILED');
    expect(run?.reason).toMatch(reason);
    expect(run?.counters.done ?? 0).toBe(0);
  });

  it.each([
    ['an unknown operation', { operation: 'rm -rf /' }, /operation/],
    ['an option injected as a parameter value', { resampling: '-co' }, /resampling/],
    ['a zoom that is not a number', { zoom: '-te' }, /zoom/],
    ['an unknown parameter', { outputPath: '/etc/passwd' }, /outputPath|Unrecognized key/],
  ])(
    'a sidecar with %s is rejected by its schema, recorded on the run, and nothing starts',
    async (_n, job, reason) => {
      const { started, run } = await runOf(RGB, { name: 'hostile.tif', job });
      expect(started.outcome).toBe('rejected');
      expect(run?.status).toBe('FAILED');
      expect(run?.reason).toMatch(reason);
      expect(hub.executions.list().some((e) => e.name === started.runId)).toBe(false);
    },
  );

  it('a key with ../ is refused by the split; spaces, unicode and long names are processed normally', async () => {
    const traversal = await runOf(RGB, { name: '../../escape.tif' });
    expect(traversal.run?.status).toBe('FAILED');
    expect(traversal.run?.reason).toMatch(/relative, without "\.\."/);

    // Put straight into incoming/, as any S3 client may (geohub's own upload shortens long names).
    const long = `incoming/${'très long nom — '.repeat(6)}/${'ü'.repeat(60)}/tile with spaces 𝕏.tif`;
    expect(Buffer.byteLength(long)).toBeGreaterThan(250);
    await hub.store.putText(`${long}.job.json`, JSON.stringify({ zoom: 7 }));
    await hub.store.putFile(long, RGB);
    let runId = '';
    expect(
      await waitUntil(async () => {
        runId = (await hub.ledger.listRuns(100)).find((r) => r.source.key === long)?.runId ?? '';
        return runId !== '';
      }, 60_000),
    ).toBe(true);
    const ended = ['SUCCEEDED', 'FAILED', 'CANCELLED'];
    expect(
      await waitUntil(
        async () => ended.includes((await hub.ledger.getRun(runId))?.status ?? ''),
        120_000,
        250,
      ),
    ).toBe(true);
    expect((await hub.ledger.getRun(runId))?.status).toBe('SUCCEEDED');
    // Output keys are derived from the run id and the tile, never from the input path.
    for await (const tile of listTiles(hub.ledger, runId)) {
      expect(tile.output?.key).toMatch(new RegExp(`^tiles/${runId}/7/\\d+/\\d+\\.tif$`));
    }
  });

  it('an all-nodata raster is processed: the run succeeds and its tiles hold no valid pixel', async () => {
    const { started, run } = await runOf(fixture('raster/all-nodata.tif'));
    expect(run?.status).toBe('SUCCEEDED');
    const out = tempDir('geohub-nodata-');
    for await (const tile of listTiles(hub.ledger, started.runId)) {
      const local = join(out, `${tile.tileId}.tif`);
      await hub.store.download(tile.output!.key, local);
      const info = JSON.parse(execFileSync('gdalinfo', ['-json', '-stats', local], { encoding: 'utf8' }));
      // GDAL finds no valid pixel to compute statistics from.
      expect(info.bands[0].maximum).toBeUndefined();
    }
  });

  it('malformed and oversized messages go to the dead-letter queue with their reason; work goes on', async () => {
    // Sent by whoever can write to the queue (here the account's administrator: no role of
    // geohub's but the split's and the enqueue's may).
    const admin = hub.principal(ADMINISTRATOR);
    await admin.queue.sendBatch([
      '{"v":1,"runId":"r-00000000","tiles":[{"id":"../../x","z":1,"x":9,"y":9}]}',
      'x'.repeat(20_000),
    ]);
    const reasons: string[] = [];
    for (let i = 0; i < 40 && reasons.length < 2; i += 1) {
      for (const m of await admin.deadLetters.receive(10, 0, 60)) reasons.push(m.attributes?.reason ?? '');
      await new Promise((res) => setTimeout(res, 250));
    }
    expect(reasons.some((r) => /invalid message: tiles\.0\.id/.test(r))).toBe(true);
    expect(reasons.some((r) => /exceeds 16384/.test(r))).toBe(true);
    // The workers are still serving.
    const { run } = await runOf(copy(RGB, 'after-bad-messages.tif'), { job: { zoom: 7 } });
    expect(run?.status).toBe('SUCCEEDED');
  });
});

function copy(path: string, name: string): string {
  const target = join(dir, name);
  copyFileSync(path, target);
  return target;
}
