import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { stackClients } from '../../support/stack-clients.js';
import { baselineTags, tiffBytes } from '../../support/tiff-bytes.js';

/*
 * The split Lambda handler on the local stack, with every input it must reject: each gets its
 * own error class and a message that says what is wrong with the file.
 */

const { config, clients, env, store } = stackClients();
const scratch = mkdtempSync(join(tmpdir(), 'geohub-reject-'));
const ROOT = new URL('../../../', import.meta.url).pathname;
const savedEnv = { ...process.env };
let handler: (event: unknown, context: object) => Promise<unknown>;

beforeAll(async () => {
  // The handler builds its dependencies from the environment on first use, as on AWS.
  Object.assign(process.env, env);
  // A cold start, as on AWS: the handler reads this environment, not a module cached by another file.
  vi.resetModules();
  handler = (await import('../../../functions/split.js')).handler as typeof handler;
});
afterAll(() => {
  for (const name of Object.keys(env)) delete process.env[name];
  Object.assign(process.env, savedEnv);
  clients.destroy();
  rmSync(scratch, { recursive: true, force: true });
});

async function upload(
  name: string,
  bytes: Uint8Array,
): Promise<{ bucket: string; key: string; version: string }> {
  const key = `incoming/${randomUUID()}/${name}`;
  const path = join(scratch, `${randomUUID()}-${name}`);
  await execa('sh', ['-c', 'cat > "$1"', 'sh', path], { input: Buffer.from(bytes) });
  const head = await store.putFile(key, path);
  return { bucket: config.bucket, key, version: head.versionId ?? head.etag };
}

const fixture = (path: string) => new Uint8Array(readFileSync(join(ROOT, path)));

/** A 10×10 GeoTIFF in `srs` over the given upper-left / lower-right corners, made by GDAL. */
async function gdalCreate(name: string, srs: string, ullr: readonly number[]): Promise<string> {
  const path = join(scratch, name);
  const corners = ullr.map(String);
  await execa('gdal_create', [
    '-q',
    '-of',
    'GTiff',
    '-outsize',
    '10',
    '10',
    '-a_srs',
    srs,
    '-a_ullr',
    ...corners,
    path,
  ]);
  return path;
}

async function rejection(event: unknown): Promise<Error> {
  const error = await handler(event, {}).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

describe('split handler', () => {
  it('splits shade.tif into the 16 tiles of its native zoom', async () => {
    const source = await upload('shade.tif', fixture('examples/raster/shade.tif'));
    const result = (await handler({ source }, {})) as {
      total: number;
      zoom: number;
      manifest: { parts: unknown[] };
    };
    expect(result).toMatchObject({ total: 16, zoom: 14 });
    expect(result.manifest.parts).toHaveLength(1);
  });

  it('rejects an event that is not a split request', async () => {
    const error = await rejection({ source: { bucket: config.bucket, key: '../x', version: '1' } });
    expect(error.name).toBe('InvalidSplitRequestError');
    expect(error.message).toBe('invalid split request: source.key: an S3 key is relative, without ".."');
  });

  it('rejects a text file named .tif', async () => {
    const source = await upload('notes.tif', new Uint8Array(Buffer.from('Meeting notes: bring the DEM.\n')));
    const error = await rejection({ source });
    expect(error.name).toBe('UnrecognisedFormatError');
    expect(error.message).toBe(
      `s3://${source.bucket}/${source.key} is neither a GeoTIFF nor a LAS/LAZ point cloud: it starts with ` +
        '"Meeting notes: b", not a TIFF (II*, MM*) or LAS (LASF) signature',
    );
  });

  it('rejects a zero-byte file', async () => {
    const source = await upload('empty.tif', new Uint8Array(0));
    const error = await rejection({ source });
    expect(error.name).toBe('EmptySourceError');
    expect(error.message).toBe(`s3://${source.bucket}/${source.key} is empty (0 bytes): nothing to split`);
  });

  it('rejects a truncated GeoTIFF', async () => {
    const rgb = fixture('examples/raster/RGB.byte.tif');
    const source = await upload('cut.tif', rgb.slice(0, 1_000_000));
    const error = await rejection({ source });
    expect(error.name).toBe('TruncatedSourceError');
    expect(error.message).toBe(
      `s3://${source.bucket}/${source.key}: the file refers to byte 1743350 but the object is only 1000000 bytes ` +
        'long; it is truncated (an interrupted upload or copy?)',
    );
  });

  it('rejects a raster without a CRS', async () => {
    const source = await upload('no-crs.tif', fixture('test/fixtures/raster/no-crs.tif'));
    const error = await rejection({ source });
    expect(error.name).toBe('MissingCrsError');
    expect(error.message).toBe(
      `s3://${source.bucket}/${source.key} has no coordinate reference system (no GeoKeys): assign one, ` +
        'e.g. gdal_translate -a_srs EPSG:xxxx',
    );
  });

  it('splits a raster whose CRS is user-defined GeoKeys (float_raster_with_nodata.tif, LAEA)', async () => {
    const source = await upload('float.tif', fixture('test/fixtures/raster/float_raster_with_nodata.tif'));
    const result = (await handler({ source }, {})) as { total: number };
    expect(result.total).toBe(1);
  });

  it('rejects a raster in a CRS whose projection method proj4 lacks, naming it', async () => {
    const path = await gdalCreate('laborde.tif', 'EPSG:8441', [1000000, 1001000, 1001000, 1000000]);
    const source = await upload('laborde.tif', new Uint8Array(readFileSync(path)));
    const error = await rejection({ source });
    expect(error.name).toBe('UnsupportedCrsError');
    expect(error.message).toBe(
      `s3://${source.bucket}/${source.key}: EPSG:8441 (Tananarive / Laborde Grid) cannot be reprojected: its projection method labrd is not one proj4 implements`,
    );
  });

  it('rejects a raster with an empty footprint (beyond the Mercator latitudes)', async () => {
    const path = await gdalCreate('polar.tif', 'EPSG:4326', [0, -86, 1, -89]);
    const source = await upload('polar.tif', new Uint8Array(readFileSync(path)));
    const error = await rejection({ source });
    expect(error.name).toBe('EmptyFootprintError');
    expect(error.message).toBe(
      `s3://${source.bucket}/${source.key} covers no area of the Web Mercator map (its footprint in ` +
        'EPSG:4326 (WGS 84) is 0, -89, 1, -86; EPSG:3857 covers latitudes ±85.05° only)',
    );
  });

  it('rejects an absurd tile count, saying the computed number', async () => {
    // shade.tif ends 1.6 mm (0.04 pixel at z22) past a tile edge: 1,025 tiles a side, not 1,024.
    const source = await upload('shade.tif', fixture('examples/raster/shade.tif'));
    const error = await rejection({ source, params: { zoom: 22 } });
    expect(error.name).toBe('TooManyTilesError');
    expect(error.message).toBe(
      `s3://${source.bucket}/${source.key} at zoom 22 needs 1,050,625 sub-tiles (1,025 × 1,025), more than the ` +
        'cap of 1,000,000; choose a lower zoom (its native zoom is 14) in the .job.json sidecar',
    );
  });

  it('rejects a header claiming absurd dimensions', async () => {
    const source = await upload('huge.tif', tiffBytes(baselineTags(1e9, 1e9)));
    const error = await rejection({ source });
    expect(error.name).toBe('ImplausibleHeaderError');
    expect(error.message).toBe(
      `s3://${source.bucket}/${source.key}: the header claims 1,000,000,000 × 1,000,000,000 pixels; geohub accepts ` +
        'at most 10,000,000 pixels a side and 1,000,000,000,000 pixels in all',
    );
  });

  it('rejects a point cloud without a CRS (simple.las)', async () => {
    const source = await upload('simple.las', fixture('test/fixtures/pointcloud/simple.las'));
    const error = await rejection({ source });
    expect(error.name).toBe('MissingCrsError');
    expect(error.message).toMatch(/has no coordinate reference system \(no GeoKeyDirectory or OGC WKT VLR\)/);
  });
});
