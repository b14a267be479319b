import type { PointcloudEngine } from '../operations/pointcloud-engine.js';
import { UnsupportedSourceError } from '../source/errors.js';
import type { SourceHeader } from '../source/source-header.js';

/**
 * The point formats laz-perf 0.0.7 has decompressors for. Formats 4, 5, 9 and 10 carry waveform
 * packets (LASzip's WAVEPACKET items), which it lacks: fed one, it traps on out-of-bounds WASM
 * memory, a decoder fault that must not be reported as bad data. PDAL (LASzip) reads them all.
 */
export const LAZ_PERF_FORMATS: ReadonlySet<number> = new Set([0, 1, 2, 3, 6, 7, 8]);

/** A LAZ file laz-perf cannot decompress (a plain LAS of any format, and COPC, it reads). */
export function beyondLazPerf(format: 'las' | 'laz' | 'copc', pointFormat: number): boolean {
  return format === 'laz' && !LAZ_PERF_FORMATS.has(pointFormat);
}

/** The one line that refuses such a file: valid data, a decoder's limit. */
export function waveformLazRefusal(where: string, pointFormat: number): UnsupportedSourceError {
  return new UnsupportedSourceError(
    `${where} is LAZ with point format ${pointFormat} (waveform packets), which the local engine's LAZ ` +
      'decoder (laz-perf) cannot decompress; the file is valid: decompress it to LAS (e.g. laszip, or ' +
      'pdal translate in.laz out.las) and upload that, or run geohub where PDAL is installed',
  );
}

/**
 * Refuses, at split, a point cloud the deployment's workers cannot decode: waveform LAZ when they
 * run the local engine. Refused here it is one line on the run; in the workers it would fail
 * every sub-tile and end as a circuit breaker's count.
 */
export function checkWorkersCanDecode(header: SourceHeader, engine: PointcloudEngine, where: string): void {
  if (header.kind !== 'pointcloud' || engine === 'pdal') return;
  if (beyondLazPerf(header.format, header.pointFormat)) throw waveformLazRefusal(where, header.pointFormat);
}
