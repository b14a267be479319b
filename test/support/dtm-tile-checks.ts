import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fromFile } from 'geotiff';
import { expect } from 'vitest';
import { tileBounds } from '../../lib/tiling/tile-bounds.js';

const run = promisify(execFile);

/** The LAS public header and the OGC WKT VLR, read by the specification's offsets, independently of lib/. */
export function lasFacts(bytes: Uint8Array) {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerSize = v.getUint16(94, true);
  const vlrCount = v.getUint32(100, true);
  let wkt: string | undefined;
  for (let i = 0, at = headerSize; i < vlrCount; i += 1) {
    const userId = Buffer.from(bytes.subarray(at + 2, at + 18))
      .toString('latin1')
      .replace(/\0+$/, '');
    const recordId = v.getUint16(at + 18, true);
    const length = v.getUint16(at + 20, true);
    if (userId === 'LASF_Projection' && recordId === 2112) {
      wkt = Buffer.from(bytes.subarray(at + 54, at + 54 + length))
        .toString('utf8')
        .replace(/\0+$/, '');
    }
    at += 54 + length;
  }
  return {
    min: [v.getFloat64(187, true), v.getFloat64(203, true)] as const,
    max: [v.getFloat64(179, true), v.getFloat64(195, true)] as const,
    wkt: wkt!,
  };
}

/** The slippy-map tile holding lon/lat at zoom z. */
export function tileAt(lon: number, lat: number, z: number) {
  const n = 2 ** z;
  const rad = (lat * Math.PI) / 180;
  return {
    x: Math.floor(((lon + 180) / 360) * n),
    y: Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n),
  };
}

export interface GdalInfo {
  size: [number, number];
  geoTransform: number[];
  coordinateSystem: { wkt: string };
  metadata: { IMAGE_STRUCTURE?: { COMPRESSION?: string } };
  bands: {
    type: string;
    noDataValue: number;
    minimum?: number;
    maximum?: number;
    metadata: { ''?: Record<string, string> };
  }[];
}

export async function gdalinfo(path: string): Promise<GdalInfo> {
  // -stats on an all-nodata raster prints an error but still answers: read stdout either way.
  const { stdout } = await run('gdalinfo', ['-json', '-stats', path]).catch((e: { stdout?: string }) => ({
    stdout: e.stdout ?? '',
  }));
  return JSON.parse(stdout) as GdalInfo;
}

/** A DTM tile as the operation must write it: 256×256 Float32, EPSG:3857, north-up on its tile. */
export function expectTileRaster(info: GdalInfo, z: number, x: number, y: number) {
  const b = tileBounds(z, x, y);
  const res = (b.maxX - b.minX) / 256;
  expect(info.size).toEqual([256, 256]);
  expect(info.coordinateSystem.wkt).toContain('ID["EPSG",3857]');
  expect(info.metadata.IMAGE_STRUCTURE?.COMPRESSION).toBe('DEFLATE');
  expect(info.bands).toHaveLength(1);
  expect(info.bands[0]!.type).toBe('Float32');
  expect(info.bands[0]!.noDataValue).toBe(-9999);
  const [x0, dx, rx, y0, ry, dy] = info.geoTransform;
  expect(x0).toBeCloseTo(b.minX, 6);
  expect(y0).toBeCloseTo(b.maxY, 6); // north-up: the origin is the north-west corner
  expect(dx).toBeCloseTo(res, 9);
  expect(dy).toBeCloseTo(-res, 9);
  expect([rx, ry]).toEqual([0, 0]);
}

/** The first band's pixels, read by geotiff.js. */
export async function pixels(path: string): Promise<Float32Array> {
  const tiff = await fromFile(path);
  try {
    const [band] = (await (await tiff.getImage()).readRasters()) as unknown as Float32Array[];
    return band!;
  } finally {
    await tiff.close();
  }
}
