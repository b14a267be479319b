import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  EmptySourceError,
  ImplausibleHeaderError,
  SourceNotFoundError,
  TruncatedSourceError,
  UnrecognisedFormatError,
  UnsupportedSourceError,
} from '../../../../lib/source/errors.js';
import { readSourceHeader } from '../../../../lib/source/read-source-header.js';
import type { RasterHeader } from '../../../../lib/source/source-header.js';
import { countingStore } from '../../../support/counting-store.js';
import { createMemoryStore } from '../../../support/memory-store.js';
import { baselineTags, tiffBytes } from '../../../support/tiff-bytes.js';

const file = (path: string) => new Uint8Array(readFileSync(new URL(`../../../../${path}`, import.meta.url)));

function storeWith(objects: Record<string, Uint8Array>) {
  const store = createMemoryStore('incoming');
  for (const [key, bytes] of Object.entries(objects)) store.putBytes(key, bytes);
  return store;
}

async function rasterHeader(path: string): Promise<RasterHeader> {
  const { header } = await readSourceHeader(storeWith({ [path]: file(path) }), path);
  expect(header.kind).toBe('raster');
  return header as RasterHeader;
}

describe('readSourceHeader on GeoTIFFs', () => {
  // Expected values are those `gdalinfo -json` reports for the same files (GDAL 3.6.2).
  it('reads RGB.byte.tif: size, bands, type, nodata, geotransform and EPSG:32618', async () => {
    const h = await rasterHeader('examples/raster/RGB.byte.tif');
    expect(h).toMatchObject({
      format: 'geotiff',
      width: 791,
      height: 718,
      bands: 3,
      dataType: 'Byte',
      nodata: 0,
    });
    expect(h.geoTransform).toEqual([101985, 300.0379266750948, 0, 2826915, 0, -300.041782729805]);
    expect(h.bbox?.[0]).toBe(101985);
    expect(h.bbox?.[1]).toBeCloseTo(2611485, 6);
    expect(h.bbox?.[2]).toBeCloseTo(339315, 6);
    expect(h.crs).toEqual({ kind: 'epsg', code: 32618, citation: 'WGS 84 / UTM zone 18N' });
  });

  it('reads shade.tif: tiled, nodata 255, Web Mercator', async () => {
    const h = await rasterHeader('examples/raster/shade.tif');
    expect(h).toMatchObject({ width: 1024, height: 1024, bands: 1, nodata: 255, tiled: true });
    expect(h.crs).toMatchObject({ kind: 'epsg', code: 3857 });
    expect(h.geoTransform).toEqual([
      -11858134.818413004, 9.5546285343, 0, 4813698.2926443005, 0, -9.5546285343,
    ]);
  });

  it('reads the NAD27 EPSG code of byte.tif', async () => {
    const h = await rasterHeader('test/fixtures/raster/byte.tif');
    expect(h.crs).toEqual({ kind: 'epsg', code: 26711, citation: 'NAD27 / UTM zone 11N' });
    expect(h.bbox).toEqual([440720, 3750120, 441920, 3751320]);
  });

  it('reports a user-defined CRS for float_raster_with_nodata.tif (LAEA keys, no EPSG code)', async () => {
    const h = await rasterHeader('test/fixtures/raster/float_raster_with_nodata.tif');
    expect(h).toMatchObject({ width: 13, height: 12, dataType: 'Float32' });
    expect(h.nodata).toBeCloseTo(-3.4e38, -33);
    expect(h.crs).toMatchObject({
      kind: 'user-defined',
      description: 'unknown: ProjectedCSTypeGeoKey 32767, Lambert Azimuthal Equal Area',
      keys: { ProjCoordTransGeoKey: 10, ProjCenterLatGeoKey: 52, ProjCenterLongGeoKey: 10 },
    });
  });

  it('reports no CRS for a raster that has a geotransform but no GeoKeys', async () => {
    const h = await rasterHeader('test/fixtures/raster/no-crs.tif');
    expect(h.geoTransform).toEqual([0, 0.5, 0, 10, 0, -0.5]);
    expect(h.crs).toBeUndefined();
  });

  it('reads only a few ranged blocks of a large file, never the whole object', async () => {
    const bytes = file('examples/raster/RGB.byte.tif');
    const { store, counts } = countingStore(storeWith({ 'rgb.tif': bytes }));
    const { read } = await readSourceHeader(store, 'rgb.tif');
    expect(counts.wholeGets).toBe(0);
    expect(counts.bytesRead).toBe(read.bytes);
    expect(counts.bytesRead).toBeLessThan(bytes.byteLength / 20);
  });

  it('applies the PixelIsPoint half-pixel shift as GDAL does', async () => {
    const tags = [
      ...baselineTags(10, 10),
      { tag: 33550, type: 'DOUBLE' as const, values: [2, 2, 0] },
      { tag: 33922, type: 'DOUBLE' as const, values: [0, 0, 0, 100, 200, 0] },
      // GeoKeyDirectory: version 1.1.0, 3 keys: model projected, raster PixelIsPoint, EPSG:32618
      {
        tag: 34735,
        type: 'SHORT' as const,
        values: [1, 1, 0, 3, 1024, 0, 1, 1, 1025, 0, 1, 2, 3072, 0, 1, 32618],
      },
    ];
    const { header } = await readSourceHeader(storeWith({ 'p.tif': tiffBytes(tags) }), 'p.tif');
    expect((header as RasterHeader).geoTransform).toEqual([99, 2, 0, 201, 0, -2]);
    expect(header.crs).toEqual({ kind: 'epsg', code: 32618 });
  });
});

describe('readSourceHeader rejects what it cannot split, each with its own error', () => {
  it('a text file named .tif', async () => {
    const store = storeWith({ 'notes.tif': new Uint8Array(Buffer.from('just some notes, not a raster\n')) });
    await expect(readSourceHeader(store, 'notes.tif')).rejects.toThrow(UnrecognisedFormatError);
    await expect(readSourceHeader(store, 'notes.tif')).rejects.toThrow(
      's3://incoming/notes.tif is neither a GeoTIFF nor a LAS/LAZ point cloud: it starts with "just some notes,", ' +
        'not a TIFF (II*, MM*) or LAS (LASF) signature',
    );
  });

  it('a zero-byte file', async () => {
    const store = storeWith({ 'empty.tif': new Uint8Array(0) });
    await expect(readSourceHeader(store, 'empty.tif')).rejects.toThrow(EmptySourceError);
    await expect(readSourceHeader(store, 'empty.tif')).rejects.toThrow(
      's3://incoming/empty.tif is empty (0 bytes): nothing to split',
    );
  });

  it('a missing object', async () => {
    await expect(readSourceHeader(storeWith({}), 'gone.tif')).rejects.toThrow(SourceNotFoundError);
  });

  it('a GeoTIFF cut in half (its IFD was at the end)', async () => {
    const rgb = file('examples/raster/RGB.byte.tif');
    const store = storeWith({ 'half.tif': rgb.slice(0, rgb.byteLength / 2) });
    await expect(readSourceHeader(store, 'half.tif')).rejects.toThrow(TruncatedSourceError);
    await expect(readSourceHeader(store, 'half.tif')).rejects.toThrow(
      's3://incoming/half.tif: the file refers to byte 1743350 but the object is only 872978 bytes long; ' +
        'it is truncated (an interrupted upload or copy?)',
    );
  });

  it('a GeoTIFF whose header is intact but whose last strip is missing', async () => {
    // The IFD comes first (as in a COG), so only the data check can see the loss: strip ends past the end.
    const tags = baselineTags(100, 100).map((t) => (t.tag === 279 ? { ...t, values: [10_000] } : t));
    const store = storeWith({ 'cut.tif': tiffBytes(tags) });
    await expect(readSourceHeader(store, 'cut.tif')).rejects.toThrow(TruncatedSourceError);
    await expect(readSourceHeader(store, 'cut.tif')).rejects.toThrow(
      /its image data runs to byte 10008; the file is truncated/,
    );
  });

  it('a header claiming 10^9 × 10^9 pixels', async () => {
    const store = storeWith({ 'huge.tif': tiffBytes(baselineTags(1e9, 1e9)) });
    await expect(readSourceHeader(store, 'huge.tif')).rejects.toThrow(ImplausibleHeaderError);
    await expect(readSourceHeader(store, 'huge.tif')).rejects.toThrow(
      's3://incoming/huge.tif: the header claims 1,000,000,000 × 1,000,000,000 pixels; geohub accepts at most ' +
        '10,000,000 pixels a side and 1,000,000,000,000 pixels in all',
    );
  });

  it('a raster georeferenced by ground control points only', async () => {
    const tags = [
      ...baselineTags(10, 10),
      { tag: 33922, type: 'DOUBLE' as const, values: [0, 0, 0, 100, 200, 0, 10, 10, 0, 120, 180, 0] },
    ];
    const store = storeWith({ 'gcp.tif': tiffBytes(tags) });
    await expect(readSourceHeader(store, 'gcp.tif')).rejects.toThrow(UnsupportedSourceError);
    await expect(readSourceHeader(store, 'gcp.tif')).rejects.toThrow(
      /georeferenced by 2 ground control points/,
    );
  });
});
