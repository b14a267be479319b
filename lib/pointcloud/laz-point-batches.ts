import { decodePointRecords, type PointBatch } from './decode-point-records.js';
import { engineRefusal, unreadableBy } from './engine-point-formats.js';
import { loadLazPerf } from './load-laz-perf.js';
import type { OpenedPointCloud } from './open-point-cloud.js';

export const LAZ_BATCH_POINTS = 65_536;
/**
 * laz-perf's file reader needs the whole compressed file in WASM memory (it reads the chunk
 * table at the end first). Beyond this size a file is better converted to COPC, which is read
 * node by node instead.
 */
export const MAX_LAZ_BYTES = 1024 * 1024 * 1024;
/**
 * The points of a (non-COPC) LAZ file, decoded one by one by laz-perf and handed out in
 * batches: the decompressed cloud never exists in memory as a whole, only the compressed bytes
 * do. Every point is decoded (a plain LAZ file has no spatial index); the caller filters.
 */
export async function* lazPointBatches(
  cloud: OpenedPointCloud,
  batchPoints = LAZ_BATCH_POINTS,
): AsyncGenerator<PointBatch> {
  const { pointCount, pointDataRecordLength: length } = cloud.las;
  const bytes = cloud.header.bytes;
  if (bytes > MAX_LAZ_BYTES) {
    throw new RangeError(
      `${cloud.path} is a ${Math.round(bytes / 2 ** 20)} MiB LAZ file without a spatial index; the local ` +
        `engine decodes plain LAZ up to ${MAX_LAZ_BYTES / 2 ** 20} MiB: convert it to COPC (pdal translate … --writers.copc) or run with PDAL`,
    );
  }
  const format = cloud.las.pointDataRecordFormat;
  const reason = unreadableBy('local', 'laz', format);
  if (reason) throw engineRefusal(cloud.path, 'local', reason);
  const lazPerf = await loadLazPerf();
  const file = await cloud.read(0, bytes);
  const filePointer = lazPerf._malloc(file.byteLength);
  const pointPointer = lazPerf._malloc(length);
  const reader = new lazPerf.LASZip();
  try {
    lazPerf.HEAPU8.set(file, filePointer);
    reader.open(filePointer, file.byteLength);
    const batch = new Uint8Array(Math.min(batchPoints, pointCount) * length);
    for (let first = 0; first < pointCount; first += batchPoints) {
      const count = Math.min(batchPoints, pointCount - first);
      for (let i = 0; i < count; i += 1) {
        reader.getPoint(pointPointer);
        batch.set(lazPerf.HEAPU8.subarray(pointPointer, pointPointer + length), i * length);
      }
      yield decodePointRecords(batch, 0, count, cloud.las);
    }
  } finally {
    reader.delete();
    lazPerf._free(pointPointer);
    lazPerf._free(filePointer);
  }
}
