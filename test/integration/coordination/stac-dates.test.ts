import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRunOutputs } from '../../../local/cli/copy-outputs.js';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import { startTestHub } from '../../support/hub.js';
import { walkStacCatalog } from '../../support/stac-items.js';
import { stacValidator } from '../../support/stac-schemas.js';
import { tempDir } from '../../support/temp-dir.js';

const BYTE = new URL('../../../test/fixtures/raster/byte.tif', import.meta.url).pathname;
let hub: LocalHub;
beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(async () => {
  await hub?.stop();
});

/** Runs `file` to the end and reads its STAC catalogue as a tool would, from a local copy. */
async function catalogueOf(file: string, name: string) {
  const started = await hub.upload(file, { name });
  if (started.outcome !== 'started') throw new Error(`not started: ${JSON.stringify(started)}`);
  expect((await hub.executions.wait(started.executionArn)).status).toBe('SUCCEEDED');
  const run = (await hub.ledger.getRun(started.runId))!;
  const out = tempDir('geohub-stac-dates-');
  await copyRunOutputs(hub.store, started.runId, out);
  const walked = walkStacCatalog(out);
  const collection = walked.collection;
  const items = walked.items.map(({ item }) => item);
  expect(walked.tiles).toHaveLength(run.counters.total);
  // What a STAC validator says of the run's own catalogue: collection, block catalogs, items.
  const validate = stacValidator();
  for (const { doc } of walked.catalogs) expect(validate(doc)).toEqual([]);
  for (const item of items) expect(validate(item)).toEqual([]);
  return { run, collection, items };
}

describe('STAC items are dated by the source where it records a date', () => {
  it('a GeoTIFF with TIFFTAG_DATETIME: datetime from the source, created by the run', async () => {
    const dated = join(tempDir('geohub-dated-'), 'dated.tif');
    execFileSync('gdal_translate', ['-q', '-mo', 'TIFFTAG_DATETIME=2019:06:21 14:30:05', BYTE, dated]);
    // GDAL's own reading of the file, which the run must agree with.
    const gdal = JSON.parse(execFileSync('gdalinfo', ['-json', dated], { encoding: 'utf8' }));
    expect(gdal.metadata[''].TIFFTAG_DATETIME).toBe('2019:06:21 14:30:05');

    const { run, collection, items } = await catalogueOf(dated, 'dated.tif');
    expect(run.sourceDatetime).toBe('2019-06-21T14:30:05Z');
    for (const item of items)
      expect({ datetime: item.properties.datetime, created: item.properties.created }).toEqual({
        datetime: '2019-06-21T14:30:05Z',
        created: run.createdAt,
      });
    expect(collection.extent.temporal.interval).toEqual([['2019-06-21T14:30:05Z', '2019-06-21T14:30:05Z']]);
    expect(collection.description).toContain("dated 2019-06-21T14:30:05Z by the source's own header");
  });

  it('a GeoTIFF without a date: datetime and created are the run’s, and the collection says so', async () => {
    const { run, collection, items } = await catalogueOf(BYTE, 'undated.tif');
    expect(run.sourceDatetime).toBeUndefined();
    for (const item of items) {
      expect(item.properties.datetime).toBe(run.createdAt);
      expect(item.properties.created).toBe(run.createdAt);
    }
    expect(collection.extent.temporal.interval[0][0]).toBe(run.createdAt);
    // The catalogue names the user's file as it was named, never the upload's key.
    // …and the run's time span, whatever date the items carry.
    expect(collection.description).toContain(
      `tiles of undated.tif (geohub run ${run.runId}, ${run.createdAt} to `,
    );
    expect(collection.description).toMatch(/dated by the run \(undated\.tif records no date\)$/);
    expect(collection.title).toBe('undated.tif, tiled by geohub');
  });
});
