import { decodePointRecords, type PointBatch } from './decode-point-records.js';
import type { OpenedPointCloud } from './open-point-cloud.js';

/** Records per read: a few MB at most, whatever the file's size. */
export const LAS_BATCH_POINTS = 65_536;

/**
 * The points of an uncompressed LAS file, streamed in batches by ranged reads: memory stays at
 * one batch, however large the file. Every record is visited (plain LAS has no spatial index);
 * the caller filters by bounds.
 */
export async function* lasPointBatches(
  cloud: OpenedPointCloud,
  batchPoints = LAS_BATCH_POINTS,
): AsyncGenerator<PointBatch> {
  const { pointCount, pointDataOffset, pointDataRecordLength } = cloud.las;
  for (let first = 0; first < pointCount; first += batchPoints) {
    const count = Math.min(batchPoints, pointCount - first);
    const begin = pointDataOffset + first * pointDataRecordLength;
    const bytes = await cloud.read(begin, begin + count * pointDataRecordLength);
    yield decodePointRecords(bytes, 0, count, cloud.las);
  }
}
