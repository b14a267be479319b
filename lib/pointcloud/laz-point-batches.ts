import { UnsupportedSourceError } from '../source/errors.js';
import { decodePointRecords, type PointBatch } from './decode-point-records.js';
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
 * The point formats laz-perf 0.0.7 has decompressors for. Formats 4, 5, 9 and 10 carry waveform
 * packets (LASzip's WAVEPACKET items), which it lacks: fed one, it traps on out-of-bounds WASM
 * memory, a decoder fault that must not be reported as bad data.
 */
export const LAZ_PERF_FORMATS: ReadonlySet<number> = new Set([0, 1, 2, 3, 6, 7, 8]);

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
  if (!LAZ_PERF_FORMATS.has(format)) {
    throw new UnsupportedSourceError(
      `${cloud.path} is LAZ with point format ${format} (waveform packets), which the local engine's LAZ ` +
        'decoder (laz-perf) cannot decompress; the file is valid: decompress it to LAS (e.g. laszip, or ' +
        'pdal translate in.laz out.las) or run it on a PDAL worker',
    );
  }
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
