import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PointBatch } from '../../../../lib/pointcloud/decode-point-records.js';
import { lazPointBatches } from '../../../../lib/pointcloud/laz-point-batches.js';
import { openPointCloud } from '../../../../lib/pointcloud/open-point-cloud.js';
import { UnsupportedSourceError } from '../../../../lib/source/errors.js';
import { groundGrid, lasBytes } from '../../../support/las-bytes.js';
import { tempDir } from '../../../support/temp-dir.js';

const COPC = new URL('../../../fixtures/pointcloud/simple.copc.laz', import.meta.url).pathname;

async function classes(batches: AsyncGenerator<PointBatch>) {
  const counts: Record<number, number> = {};
  const sizes: number[] = [];
  for await (const b of batches) {
    sizes.push(b.count);
    for (const c of b.classification) counts[c] = (counts[c] ?? 0) + 1;
  }
  return { counts, sizes };
}

describe('lazPointBatches', () => {
  it('decodes a LAS 1.4 LAZ (point format 7, variable chunks) point by point, in batches of the asked size', async () => {
    // A COPC file is a valid LAZ 1.4 file: read here as a plain one, from the first point to the last.
    const cloud = await openPointCloud(COPC);
    try {
      const { counts, sizes } = await classes(lazPointBatches(cloud, 400));
      expect(sizes).toEqual([400, 400, 265]);
      expect(counts).toEqual({ 1: 789, 2: 276 });
    } finally {
      await cloud.close();
    }
  });

  it('frees what it holds when the reader stops early', async () => {
    const cloud = await openPointCloud(COPC);
    try {
      for await (const batch of lazPointBatches(cloud, 10)) {
        expect(batch.count).toBe(10);
        break;
      }
      // Decoding again from the start works: the first reader was released, not left half-read.
      expect((await classes(lazPointBatches(cloud))).sizes).toEqual([1065]);
    } finally {
      await cloud.close();
    }
  });

  it('refuses LAZ with waveform packets as a limit of the decoder, before laz-perf can trap on it', async () => {
    const dir = tempDir('geohub-laz-');
    const path = join(dir, 'waveform.laz');
    // laz-perf would be asked to decode format 9.
    const bytes = lasBytes({ minor: 4, format: 9, points: groundGrid(0, 0, 3, 1), epsg: 32610, laz: true });
    writeFileSync(path, bytes);
    const cloud = await openPointCloud(path);
    try {
      const error = await lazPointBatches(cloud)
        .next()
        .then(
          () => undefined,
          (e: Error) => e,
        );
      expect(error).toBeInstanceOf(UnsupportedSourceError);
      expect(error?.message).toBe(
        `${path} cannot be read here: the local engine's LAZ decoder (laz-perf) cannot decompress point format 9 ` +
          '(waveform packets); the file is valid: decompress it to LAS (laszip) and upload that, the local engine ' +
          'reads every point format uncompressed',
      );
    } finally {
      await cloud.close();
    }
  });
});
