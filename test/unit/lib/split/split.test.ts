import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifestIndexKey } from '../../../../lib/manifest/manifest-ref.js';
import { runIdFor, tileIdFor } from '../../../../lib/model/ids.js';
import { metatileOf, metatileSchema } from '../../../../lib/model/metatile.js';
import { UnrecognisedFormatError, UnsupportedSourceError } from '../../../../lib/source/errors.js';
import {
  ForeignBucketError,
  OperationMismatchError,
  RunConflictError,
} from '../../../../lib/split/errors.js';
import { split } from '../../../../lib/split/split.js';
import { groundGrid, lasBytes } from '../../../support/las-bytes.js';
import { createMemoryLedger } from '../../../support/memory-ledger.js';
import { createMemoryStore } from '../../../support/memory-store.js';

const BUCKET = 'geohub-data';
const file = (path: string) => new Uint8Array(readFileSync(new URL(`../../../../${path}`, import.meta.url)));

function setup(objects: Record<string, Uint8Array>) {
  const store = createMemoryStore(BUCKET);
  for (const [key, bytes] of Object.entries(objects)) store.putBytes(key, bytes);
  const ledger = createMemoryLedger();
  return { store, ledger };
}

const sourceOf = (key: string) => ({ bucket: BUCKET, key, version: 'v1' });

describe('split', () => {
  it('writes the manifest in parts, records the run, and returns only a reference', async () => {
    const { store, ledger } = setup({ 'incoming/rgb.tif': file('examples/raster/RGB.byte.tif') });
    const source = sourceOf('incoming/rgb.tif');
    const result = await split({ source, params: { zoom: 12 } }, { store, ledger, partLines: 2 });
    const runId = runIdFor(source);

    expect(result).toMatchObject({ runId, operation: 'raster-xyz', zoom: 12, total: result.manifest.total });
    expect(result.manifest.parts.length).toBeGreaterThan(1);
    expect(result.manifest.parts[0]).toMatchObject({ key: `runs/${runId}/manifest-00000.jsonl` });

    // Each line is a metatile: its id is the hash of its tiles' ids, as a worker claims it.
    const seen = new Set<string>();
    for (const part of result.manifest.parts) {
      const text = await store.getText(part.key);
      expect(Buffer.byteLength(text)).toBe(part.bytes);
      const lines = text.trimEnd().split('\n');
      expect(lines.length).toBeLessThanOrEqual(2);
      const metatiles = lines.map((line) => metatileSchema.parse(JSON.parse(line)));
      expect(metatiles.reduce((n, m) => n + m.tiles.length, 0)).toBe(part.tiles);
      for (const metatile of metatiles) {
        expect(metatile.id).toBe(metatileOf(metatile.tiles).id);
        expect(metatile.members).toBeUndefined();
        for (const task of metatile.tiles) {
          expect(task.z).toBe(12);
          expect(task.id).toBe(tileIdFor(runId, 'raster-xyz', result.paramsVersion, task));
          seen.add(`${task.x}/${task.y}`);
        }
      }
    }
    expect(seen.size).toBe(result.total);
    expect(JSON.parse(await store.getText(manifestIndexKey(runId)))).toEqual(result.manifest);

    const run = (await ledger.getRun(runId))!;
    expect(run).toMatchObject({
      status: 'RUNNING',
      operation: 'raster-xyz',
      paramsVersion: result.paramsVersion,
    });
    expect(run.params).toEqual({ resampling: 'bilinear', transformer: 'approximate', zoom: 12 });
    expect(run.counters.total).toBe(result.total);
    expect(result.headerBytesRead).toBeLessThan(100_000);
  });

  it('chooses the operation from the source kind and the zoom from its resolution', async () => {
    const { store, ledger } = setup({ 'in/autzen.laz': file('examples/pointcloud/autzen_trim.laz') });
    const result = await split({ source: sourceOf('in/autzen.laz'), params: {} }, { store, ledger });
    expect(result.operation).toBe('pointcloud-dtm');
    expect(result.zoom).toBe(result.nativeZoom);
    expect(result.total).toBeGreaterThan(0);
  });

  it('sizes the metatiles to the work per sub-tile: a big raster far below its native zoom gets small ones', async () => {
    // 60,000² RGB at 10 m, as GDAL writes a sparse tiled BigTIFF: a few hundred kB, the header of
    // 10.8 G samples. At its native zoom (14) a sub-tile reads a tile's worth of it; at zoom 9 a
    // sixtieth of the whole, about 18 s at the rate metatile-size.ts assumes.
    const dir = mkdtempSync(join(tmpdir(), 'geohub-split-'));
    try {
      const big = join(dir, 'big.tif');
      execFileSync('gdal_create', [
        ...['-q', '-of', 'GTiff', '-outsize', '60000', '60000', '-bands', '3', '-ot', 'Byte'],
        ...['-co', 'TILED=YES', '-co', 'SPARSE_OK=TRUE', '-co', 'BIGTIFF=YES', '-co', 'COMPRESS=DEFLATE'],
        ...['-a_srs', 'EPSG:3857', '-a_ullr', '0', '600000', '600000', '0'],
        big,
      ]);
      const { store, ledger } = setup({ 'in/big.tif': new Uint8Array(readFileSync(big)) });
      const coarse = await split({ source: sourceOf('in/big.tif'), params: { zoom: 9 } }, { store, ledger });
      expect(coarse.manifest.tilesPerMessage).toBe(1);
      const { store: s2, ledger: l2 } = setup({ 'in/big.tif': new Uint8Array(readFileSync(big)) });
      const native = await split({ source: sourceOf('in/big.tif'), params: {} }, { store: s2, ledger: l2 });
      expect(native.zoom).toBe(14);
      expect(native.manifest.tilesPerMessage).toBe(16);
      // The deployment's cap still holds.
      const { store: s3, ledger: l3 } = setup({ 'in/big.tif': new Uint8Array(readFileSync(big)) });
      const capped = await split(
        { source: sourceOf('in/big.tif'), params: { zoom: 12 } },
        { store: s3, ledger: l3, tilesPerMessage: 4 },
      );
      expect(capped.manifest.tilesPerMessage).toBe(4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is idempotent: a repeated event rewrites the same manifest and finds the same run', async () => {
    const { store, ledger } = setup({ 'in/shade.tif': file('examples/raster/shade.tif') });
    const request = { source: sourceOf('in/shade.tif'), params: {} };
    const first = await split(request, { store, ledger });
    const firstPart = await store.getText(first.manifest.parts[0]!.key);
    const second = await split(request, { store, ledger });
    expect(second).toEqual(first);
    expect(await store.getText(first.manifest.parts[0]!.key)).toBe(firstPart);
    expect(first.zoom).toBe(14);
    expect(first.total).toBe(16);
  });

  it('does not split again a run that was cancelled, nor one with other parameters', async () => {
    const { store, ledger } = setup({ 'in/shade.tif': file('examples/raster/shade.tif') });
    const source = sourceOf('in/shade.tif');
    await split({ source, params: {} }, { store, ledger });
    await expect(split({ source, params: { zoom: 12 } }, { store, ledger })).rejects.toThrow(
      /already exists with other parameters/,
    );
    await ledger.updateRun(runIdFor(source), { status: 'CANCELLED' });
    await expect(split({ source, params: {} }, { store, ledger })).rejects.toThrow(RunConflictError);
    await expect(split({ source, params: {} }, { store, ledger })).rejects.toThrow(
      /is CANCELLED; it is not split again/,
    );
  });

  it('refuses an operation that does not fit the source', async () => {
    const { store, ledger } = setup({ 'in/shade.tif': file('examples/raster/shade.tif') });
    await expect(
      split({ source: sourceOf('in/shade.tif'), operation: 'pointcloud-dtm', params: {} }, { store, ledger }),
    ).rejects.toThrow(OperationMismatchError);
  });

  it('refuses a source in another bucket, and surfaces header errors untouched', async () => {
    const { store, ledger } = setup({ 'in/a.tif': new Uint8Array(Buffer.from('text')) });
    await expect(
      split(
        { source: { bucket: 'elsewhere', key: 'in/a.tif', version: 'v' }, params: {} },
        { store, ledger },
      ),
    ).rejects.toThrow(ForeignBucketError);
    await expect(split({ source: sourceOf('in/a.tif'), params: {} }, { store, ledger })).rejects.toThrow(
      UnrecognisedFormatError,
    );
    expect(await ledger.listRuns()).toEqual([]);
  });

  it("refuses waveform LAZ in one line with either engine, naming the point format and the tool's reason", async () => {
    const waveform = lasBytes({
      minor: 4,
      format: 9,
      points: groundGrid(500000, 4100000, 10, 1),
      epsg: 32610,
      laz: true, // laz-perf has no decompressor for the waveform packets of format 9
    });
    const { store, ledger } = setup({ 'in/wave.laz': waveform });
    const request = { source: sourceOf('in/wave.laz'), params: {} };
    const refused = await split(request, { store, ledger, pointcloudEngine: 'local' }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(refused).toBeInstanceOf(UnsupportedSourceError);
    expect(refused?.message).toMatch(
      /^s3:\/\/geohub-data\/in\/wave\.laz cannot be read here: the local engine's LAZ decoder \(laz-perf\) cannot decompress point format 9 \(waveform packets\); [^\n]+$/,
    );
    // Nothing was recorded or queued for it: no run, no manifest.
    expect(await ledger.getRun(runIdFor(request.source))).toBeUndefined();
    const written: string[] = [];
    for await (const { key } of store.list('runs/')) written.push(key);
    expect(written).toEqual([]);

    // PDAL 2.8.4 reads no waveform format at all: refused too, with PDAL's own words.
    const withPdal = await split(request, { store, ledger, pointcloudEngine: 'pdal' }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(withPdal).toBeInstanceOf(UnsupportedSourceError);
    expect(withPdal?.message).toContain('readers.las: Unsupported LAS input point format: 9.');
    expect(await ledger.getRun(runIdFor(request.source))).toBeUndefined();
  });
});
