import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CorruptHeaderError,
  ImplausibleHeaderError,
  TruncatedSourceError,
} from '../../../../lib/source/errors.js';
import { readSourceHeader } from '../../../../lib/source/read-source-header.js';
import type { PointCloudHeader } from '../../../../lib/source/source-header.js';
import { groundGrid, lasBytes } from '../../../support/las-bytes.js';
import { createMemoryStore } from '../../../support/memory-store.js';

const file = (path: string) => new Uint8Array(readFileSync(new URL(`../../../../${path}`, import.meta.url)));

/** The LAS public header fields, read straight from the specification's byte offsets (independent of lib/). */
function specFields(bytes: Uint8Array) {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const minor = v.getUint8(25);
  return {
    version: `${v.getUint8(24)}.${minor}`,
    pointCount:
      minor >= 4 ? Number(v.getBigUint64(247, true)) || v.getUint32(107, true) : v.getUint32(107, true),
    max: [v.getFloat64(179, true), v.getFloat64(195, true), v.getFloat64(211, true)],
    min: [v.getFloat64(187, true), v.getFloat64(203, true), v.getFloat64(219, true)],
  };
}

async function read(bytes: Uint8Array, key = 'cloud.laz') {
  const store = createMemoryStore('incoming');
  store.putBytes(key, bytes);
  return readSourceHeader(store, key);
}

async function pointCloud(path: string) {
  const bytes = file(path);
  const { header, read: cost } = await read(bytes);
  expect(header.kind).toBe('pointcloud');
  return { header: header as PointCloudHeader, bytes, cost };
}

describe('readSourceHeader on point clouds', () => {
  it('reads autzen_trim.laz: 110,000 points, its bounds, and the Oregon Lambert WKT', async () => {
    const { header, bytes, cost } = await pointCloud('examples/pointcloud/autzen_trim.laz');
    const spec = specFields(bytes);
    expect(header).toMatchObject({ format: 'laz', version: '1.2', pointFormat: 3, pointCount: 110_000 });
    expect(header.pointCount).toBe(spec.pointCount);
    expect(header.bbox).toEqual([spec.min[0], spec.min[1], spec.max[0], spec.max[1]]);
    expect(header.bbox[0]).toBeCloseTo(636001.76, 6);
    expect(header.bbox[3]).toBeCloseTo(849497.9, 6);
    expect(header.zRange[0]).toBeCloseTo(406.26, 6);
    expect(header.scale).toEqual([0.01, 0.01, 0.01]);
    // The GeoKeys of this file are user-defined; the OGC WKT record names the CRS.
    expect(header.crs?.kind).toBe('wkt');
    expect(header.crs?.kind === 'wkt' && header.crs.wkt).toMatch(
      /^PROJCS\["NAD_1983_HARN_Lambert_Conformal_Conic",.*UNIT\["foot",0.3048/,
    );
    expect(cost.bytes).toBeLessThan(bytes.byteLength / 10);
  });

  it('reads simple.las: 1065 points, its bounds, and no CRS (it has no VLRs)', async () => {
    const { header, bytes } = await pointCloud('test/fixtures/pointcloud/simple.las');
    const spec = specFields(bytes);
    expect(header).toMatchObject({ format: 'las', version: '1.2', pointCount: 1065 });
    expect(header.bbox).toEqual([spec.min[0], spec.min[1], spec.max[0], spec.max[1]]);
    expect(header.bbox[0]).toBeCloseTo(635619.85, 6);
    expect(header.bbox[2]).toBeCloseTo(638982.55, 6);
    expect(header.crs).toBeUndefined();
  });

  it('reads simple.copc.laz: a LAS 1.4 COPC file with a compound WKT in its VLRs', async () => {
    const { header, bytes } = await pointCloud('test/fixtures/pointcloud/simple.copc.laz');
    expect(header).toMatchObject({
      format: 'copc',
      version: '1.4',
      pointCount: specFields(bytes).pointCount,
    });
    expect(header.crs?.kind === 'wkt' && header.crs.wkt).toMatch(/^COMPD_CS\["NAD83 \/ Oregon LCC \(m\)/);
  });
});

describe('readSourceHeader rejects broken point clouds', () => {
  it('a LAS file cut short of its points', async () => {
    const bytes = file('test/fixtures/pointcloud/simple.las');
    await expect(read(bytes.slice(0, 20_000), 'cut.las')).rejects.toThrow(TruncatedSourceError);
    await expect(read(bytes.slice(0, 20_000), 'cut.las')).rejects.toThrow(
      's3://incoming/cut.las: 1,065 points of 34 bytes need 36,437 bytes, the object has 20,000; the file is truncated',
    );
  });

  it('a LAS file shorter than its header', async () => {
    const bytes = file('test/fixtures/pointcloud/simple.las');
    await expect(read(bytes.slice(0, 100))).rejects.toThrow(
      /a LAS header is at least 227 bytes, the object has 100; the file is truncated/,
    );
  });

  it('a LAS 1.3 header that claims the 1.2 header size', async () => {
    const bytes = file('test/fixtures/pointcloud/simple.las');
    bytes[25] = 3;
    await expect(read(bytes)).rejects.toThrow(CorruptHeaderError);
    await expect(read(bytes)).rejects.toThrow(/the LAS 1.3 header size field says 227 bytes/);
  });

  it('a header with NaN bounds or an absurd point count', async () => {
    const nan = file('test/fixtures/pointcloud/simple.las');
    new DataView(nan.buffer).setFloat64(179, Number.NaN, true);
    await expect(read(nan)).rejects.toThrow(ImplausibleHeaderError);
    await expect(read(nan)).rejects.toThrow(/the header bounds are not a box/);

    const inverted = file('test/fixtures/pointcloud/simple.las');
    new DataView(inverted.buffer).setFloat64(179, 0, true);
    await expect(read(inverted)).rejects.toThrow(/the header bounds are not a box \(min 635619.85/);
  });

  it('a VLR count that cannot fit before the points', async () => {
    const bytes = file('test/fixtures/pointcloud/simple.las');
    new DataView(bytes.buffer).setUint32(100, 5, true);
    await expect(read(bytes)).rejects.toThrow(CorruptHeaderError);
  });
});

describe('readSourceHeader on every LAS version and point format', () => {
  const points = groundGrid(500000, 4100000, 5, 2);
  const versions: [0 | 1 | 2 | 3 | 4, number[]][] = [
    [0, [0, 1]],
    [1, [0, 1]],
    [2, [0, 1, 2, 3]],
    [3, [0, 1, 2, 3, 4, 5]],
    [4, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
  ];
  for (const [minor, formats] of versions) {
    for (const format of formats) {
      it(`LAS 1.${minor}, point format ${format}`, async () => {
        const bytes = lasBytes({ minor, format, points, epsg: 32610 });
        const { header } = await read(bytes, 'cloud.las');
        expect(header).toMatchObject({
          kind: 'pointcloud',
          format: 'las',
          version: `1.${minor}`,
          pointFormat: format,
          pointCount: 25,
          crs: { kind: 'epsg', code: 32610 },
        });
        expect((header as PointCloudHeader).bbox).toEqual([500000, 4100000, 500008, 4100008]);
      });
    }
  }

  it('takes the CRS from the WKT VLR when a LAS 1.4 file has no GeoKeys', async () => {
    const wkt =
      'PROJCS["WGS 84 / UTM zone 10N",GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["latitude_of_origin",0],PARAMETER["central_meridian",-123],PARAMETER["scale_factor",0.9996],PARAMETER["false_easting",500000],PARAMETER["false_northing",0],UNIT["metre",1]]';
    const { header } = await read(lasBytes({ minor: 4, format: 9, points, wkt }), 'cloud.las');
    expect(header.crs).toEqual({ kind: 'wkt', wkt });
  });
});
