import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTiles } from '../../../lib/ledger/tile-records.js';
import { encodeEventKey } from '../../../lib/trigger/s3-event.js';
import { verifyRun } from '../../../lib/verify/verify-run.js';
import { copyRunOutputs } from '../../../local/cli/copy-outputs.js';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import { localVersionId } from '../../../local/stack/versioned-events.js';
import { expectSucceeded } from '../../support/expect-succeeded.js';
import { startTestHub } from '../../support/hub.js';
import { walkStacCatalog } from '../../support/stac-items.js';
import { tempDir } from '../../support/temp-dir.js';

const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const AUTZEN = new URL('../../../examples/pointcloud/autzen_trim.laz', import.meta.url).pathname;
let hub: LocalHub;
beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(async () => {
  await hub?.stop();
});

describe('a run from upload to mosaic, coordinated by the real state machine', () => {
  it('ends SUCCEEDED with every tile marked, the mosaic VRT and the STAC collection written', async () => {
    const started = await hub.upload(RGB);
    expect(started.outcome).toBe('started');
    if (started.outcome !== 'started') return;
    const execution = await hub.executions.wait(started.executionArn);
    expectSucceeded(execution);
    expect(execution.states).toContain('Split');
    expect(execution.states).toContain('Finalize');

    const run = await hub.ledger.getRun(started.runId);
    expect(run?.status).toBe('SUCCEEDED');
    expect(run?.counters.done).toBe(run?.counters.total);
    expect(run?.counters.total).toBeGreaterThan(4);
    // Run metadata lives apart from the tiles: exactly one object per marker under the tiles prefix.
    const report = await verifyRun(hub.ledger, hub.store, started.runId);
    expect(report.gaps).toEqual([]);
    expect(report.unmarked).toEqual([]);
    expect(report.markers).toBe(run?.counters.total);
    expect(report.objects).toBe(report.markers);

    // A copy of the run as geohub run --out lays it out, opened with GDAL.
    const out = mkdtempSync(join(tmpdir(), 'geohub-run-'));
    try {
      await copyRunOutputs(hub.store, started.runId, out);
      const vrt = JSON.parse(
        execFileSync('gdalinfo', ['-json', join(out, 'mosaic.vrt')], { encoding: 'utf8' }),
      );
      expect(vrt.bands).toHaveLength(3);
      expect(vrt.coordinateSystem.wkt).toContain('3857');
      // Every pixel read through the block VRTs down to the tiles: a broken href would fail here.
      const checksum = execFileSync('gdalinfo', ['-checksum', join(out, 'mosaic.vrt')], { encoding: 'utf8' });
      expect(checksum).toMatch(/Checksum=\d+/);
      expect(checksum).not.toMatch(/ERROR/);
      // The catalog walked by links alone: every tile exactly once, each asset a readable COG.
      const { collection, items, tiles } = walkStacCatalog(out);
      expect(tiles).toHaveLength(run!.counters.total);
      expect(new Set(tiles.map((t) => t.assetPath)).size).toBe(run!.counters.total);
      for (const { asset, assetPath } of tiles) {
        execFileSync('gdalinfo', [assetPath]); // throws if the asset points nowhere
        expect(asset.type).toBe('image/tiff; application=geotiff; profile=cloud-optimized');
      }
      for (const { item } of items) {
        // Every prefixed field belongs to an extension the item declares.
        const fields = [
          ...Object.keys(item.properties),
          ...Object.values(item.assets).flatMap((a) => Object.keys(a)),
        ];
        for (const prefix of new Set(fields.filter((f) => f.includes(':')).map((f) => f.split(':')[0]))) {
          expect(
            item.stac_extensions.some((e) => e.includes(`/${prefix === 'proj' ? 'projection' : prefix}/`)),
          ).toBe(true);
        }
        expect(item.links.map((l) => l.rel)).toEqual(
          expect.arrayContaining(['root', 'parent', 'collection']),
        );
      }
      expect(collection.type).toBe('Collection');
      expect(collection.links.map((l) => l.rel)).toEqual(expect.arrayContaining(['root', 'self', 'child']));
      expect(collection.title).toBe('RGB.byte.tif, tiled by geohub');
      expect(collection.description).not.toContain('s3://');
      expect(collection.description).not.toContain('incoming/');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('turns a point cloud into DTM tiles: 256×256 EPSG:3857 Float32 GeoTIFFs', async () => {
    const started = await hub.upload(AUTZEN);
    if (started.outcome !== 'started') throw new Error(`not started: ${JSON.stringify(started)}`);
    const execution = await hub.executions.wait(started.executionArn);
    expect(execution.status).toBe('SUCCEEDED');
    const run = await hub.ledger.getRun(started.runId);
    expect(run?.operation).toBe('pointcloud-dtm');
    expect(run?.counters.done).toBe(run?.counters.total);
    // Its STAC items are dated by the LAZ header's creation day (day 253 of 2015), not the run.
    expect(run?.sourceDatetime).toBe('2015-09-10T00:00:00Z');
    const stac = tempDir('geohub-dtm-stac-');
    await copyRunOutputs(hub.store, started.runId, stac);
    const { items } = walkStacCatalog(stac);
    expect(items.length).toBeGreaterThan(0);
    for (const { item } of items)
      expect(item.properties).toMatchObject({ datetime: '2015-09-10T00:00:00Z', created: run?.createdAt });
    const out = tempDir('geohub-dtm-');
    let withData = 0;
    for await (const tile of listTiles(hub.ledger, started.runId)) {
      const local = join(out, `${tile.tileId}.tif`);
      await hub.store.download(tile.output!.key, local);
      const info = JSON.parse(execFileSync('gdalinfo', ['-json', '-stats', local], { encoding: 'utf8' }));
      expect(info.size).toEqual([256, 256]);
      expect(info.bands[0].type).toBe('Float32');
      expect(info.bands[0].noDataValue).toBe(-9999);
      expect(info.coordinateSystem.wkt).toContain('"EPSG",3857');
      const max = info.bands[0].maximum as number | undefined;
      if (max !== undefined && max > -9999) {
        withData += 1;
        // Autzen's ground lies between about 406 and 434 feet.
        expect(info.bands[0].minimum).toBeGreaterThan(400);
        expect(max).toBeLessThan(440);
      }
    }
    expect(withData).toBeGreaterThan(0);
  });

  it('starts no second execution for a duplicate S3 event', async () => {
    const first = await hub.upload(RGB, { name: 'dup lic\u00e9.tif' });
    expect(first.outcome).toBe('started');
    if (first.outcome !== 'started') return;
    const key = first.key;
    // The same object version announced again, as S3 may do.
    const before = hub.executions.list().length;
    const { onUploadTask } = await import('../../../functions/on-upload.js');
    // As the on-upload function does, under its role (the operator may not read incoming/).
    const asOnUpload = hub.principal('on-upload');
    const head = await asOnUpload.store.head(key);
    const again = await onUploadTask({
      ledger: asOnUpload.ledger,
      store: asOnUpload.store,
      starter: hub.executions,
    })({
      Records: [
        {
          eventName: 'ObjectCreated:Put',
          s3: {
            bucket: { name: hub.store.bucket },
            // The same version: the bucket is versioned (serverless.yml), as the first event said.
            object: {
              key: encodeEventKey(key),
              eTag: head!.etag,
              versionId: localVersionId(hub.store.bucket, key, head!.etag),
            },
          },
        },
      ],
    });
    expect(again).toEqual([{ outcome: 'duplicate', runId: first.runId, executionArn: first.executionArn }]);
    // Keys arrive URL-encoded in real events: a space and unicode in the name decode to the same run.
    expect(hub.executions.list().length).toBe(before);
    await hub.executions.wait(first.executionArn);
  });
});
