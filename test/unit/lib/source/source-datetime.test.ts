import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readSourceHeader } from '../../../../lib/source/read-source-header.js';
import { lasCreationDate, tiffDatetime } from '../../../../lib/source/source-datetime.js';
import { createMemoryStore } from '../../../support/memory-store.js';

async function headerOf(path: string) {
  const store = createMemoryStore('incoming');
  store.putBytes(path, new Uint8Array(readFileSync(new URL(`../../../../${path}`, import.meta.url))));
  return (await readSourceHeader(store, path)).header;
}

describe("a source's own date", () => {
  it('reads TIFF DateTime as UTC, refusing what is no date', () => {
    expect(tiffDatetime('2022:01:17 10:43:43')).toBe('2022-01-17T10:43:43Z');
    expect(tiffDatetime('2024:02:29 00:00:00')).toBe('2024-02-29T00:00:00Z');
    for (const junk of [
      '0000:00:00 00:00:00',
      '2021:02:30 10:00:00',
      '2021:13:01 10:00:00',
      '17/01/2022',
      '',
      7,
    ])
      expect(tiffDatetime(junk), String(junk)).toBeUndefined();
  });

  it('reads the LAS creation day of year and year, refusing placeholders', () => {
    expect(lasCreationDate(253, 2015)).toBe('2015-09-10T00:00:00Z');
    expect(lasCreationDate(366, 2016)).toBe('2016-12-31T00:00:00Z');
    expect(lasCreationDate(366, 2015)).toBeUndefined();
    expect(lasCreationDate(0, 2015)).toBeUndefined();
    expect(lasCreationDate(1, 1)).toBeUndefined();
    expect(lasCreationDate(0, 0)).toBeUndefined();
  });

  it('is in the header read from real files: TIFFTAG_DATETIME as gdalinfo reports it, LAZ and COPC creation days', async () => {
    // gdalinfo -json: TIFFTAG_DATETIME "2022:01:17 10:43:43".
    expect((await headerOf('test/fixtures/raster/all-nodata.tif')).datetime).toBe('2022-01-17T10:43:43Z');
    expect((await headerOf('test/fixtures/raster/byte.tif')).datetime).toBeUndefined();
    // autzen_trim.laz: day 253 of 2015; simple.copc.laz writes day 1 of year 1, simple.las zeros.
    expect((await headerOf('examples/pointcloud/autzen_trim.laz')).datetime).toBe('2015-09-10T00:00:00Z');
    expect((await headerOf('test/fixtures/pointcloud/simple.copc.laz')).datetime).toBeUndefined();
    expect((await headerOf('test/fixtures/pointcloud/simple.las')).datetime).toBeUndefined();
  });
});
