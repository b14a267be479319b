import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { runIdFor } from '../../../lib/model/ids.js';
import { metatileSchema } from '../../../lib/model/metatile.js';
import { split } from '../../../lib/split/split.js';
import { countingStore } from '../../support/counting-store.js';
import { stackClients } from '../../support/stack-clients.js';

const { config, clients, ledger, store: s3 } = stackClients();
const scratch = mkdtempSync(join(tmpdir(), 'geohub-split-'));
afterAll(() => {
  clients.destroy();
  rmSync(scratch, { recursive: true, force: true });
});

const SHADE = new URL('../../../examples/raster/shade.tif', import.meta.url).pathname;

describe('split of a COG on the local stack', () => {
  it('reads only the header by ranged GETs, writes the manifest and records the run', async () => {
    // A 4096² uncompressed COG with overviews, ~22 MB: big enough that the header is a sliver.
    const cog = join(scratch, 'shade-cog.tif');
    await execa('gdal_translate', [
      '-q',
      '-of',
      'COG',
      '-outsize',
      '4096',
      '4096',
      '-r',
      'bilinear',
      '-co',
      'COMPRESS=NONE',
      SHADE,
      cog,
    ]);
    const bytes = statSync(cog).size;
    const key = `incoming/${Date.now()}/shade-cog.tif`;
    const put = await s3.putFile(key, cog);
    const { store, counts } = countingStore(s3);
    const source = { bucket: config.bucket, key, version: put.versionId ?? put.etag };

    const result = await split({ source, params: {} }, { store, ledger });

    // Every byte read from the source went through ranged GETs, and they are a small fraction.
    expect(counts.wholeGets).toBe(0);
    expect(counts.bytesRead).toBe(result.headerBytesRead);
    expect(counts.bytesRead).toBeLessThan(bytes / 100);
    console.info(
      `COG split: read ${counts.bytesRead} of ${bytes} bytes (${((100 * counts.bytesRead) / bytes).toFixed(3)}%) ` +
        `in ${counts.rangedGets} ranged GET(s)`,
    );

    // Native zoom: 2.3887 m/px is exactly zoom 16; the source is one z12 tile, so 16 × 16 tiles.
    expect(result).toMatchObject({ runId: runIdFor(source), operation: 'raster-xyz', zoom: 16, total: 256 });
    const run = await ledger.getRun(result.runId);
    expect(run).toMatchObject({
      status: 'RUNNING',
      paramsVersion: result.paramsVersion,
      operation: 'raster-xyz',
    });
    expect(run?.counters.total).toBe(256);

    const text = await s3.getText(result.manifest.parts[0]!.key);
    const tasks = text
      .trimEnd()
      .split('\n')
      .flatMap((l) => metatileSchema.parse(JSON.parse(l)).tiles);
    expect(tasks).toHaveLength(256);
    expect(new Set(tasks.map((t) => `${t.x}/${t.y}`)).size).toBe(256);
  });
});
