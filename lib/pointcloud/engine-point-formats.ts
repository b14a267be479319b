import type { PointcloudEngine } from '../operations/pointcloud-engine.js';
import { UnsupportedSourceError } from '../source/errors.js';
import type { SourceHeader } from '../source/source-header.js';

/**
 * The point formats laz-perf 0.0.7 has decompressors for. Formats 4, 5, 9 and 10 carry waveform
 * packets (LASzip's WAVEPACKET items), which it lacks: fed one, it traps on out-of-bounds WASM
 * memory, a decoder fault that must not be reported as bad data. Uncompressed, the local engine
 * reads every format: it decodes the records itself.
 */
export const LAZ_PERF_FORMATS: ReadonlySet<number> = new Set([0, 1, 2, 3, 6, 7, 8]);

/**
 * The point formats PDAL reads, measured with PDAL 2.8.4 (test/pdal/point-formats.test.ts):
 * 0–3 and 6–8, as LAS, LAZ and COPC alike. The waveform formats 4, 5, 9 and 10 fail in its
 * reader whether compressed or not: `readers.las: Unsupported LAS input point format: N.`
 */
export const PDAL_POINT_FORMATS: ReadonlySet<number> = new Set([0, 1, 2, 3, 6, 7, 8]);
export const PDAL_TESTED_VERSION = '2.8.4';

/** Why `engine` cannot read a file of this format and point format; undefined when it can. */
export function unreadableBy(
  engine: PointcloudEngine,
  format: 'las' | 'laz' | 'copc',
  pointFormat: number,
): string | undefined {
  if (engine === 'pdal')
    return PDAL_POINT_FORMATS.has(pointFormat)
      ? undefined
      : `PDAL ${PDAL_TESTED_VERSION} does not read point format ${pointFormat} (waveform packets) in any form ` +
          `("readers.las: Unsupported LAS input point format: ${pointFormat}.")`;
  if (format === 'laz' && !LAZ_PERF_FORMATS.has(pointFormat))
    return `the local engine's LAZ decoder (laz-perf) cannot decompress point format ${pointFormat} (waveform packets)`;
  return undefined;
}

/** What reads the file instead: only the local engine reads the waveform formats, and only uncompressed. */
const REMEDY: Record<PointcloudEngine, string> = {
  local:
    'the file is valid: decompress it to LAS (laszip) and upload that, the local engine reads every point format uncompressed',
  pdal:
    'the file is valid: convert it to point format 6–8 (las2las -set_point_type 6), or decompress it to LAS and run it ' +
    'with the local engine (GEOHUB_POINTCLOUD_ENGINE=local), which reads every point format uncompressed',
};

/** The one line that refuses such a file: valid data beyond this deployment's engine. */
export function engineRefusal(
  where: string,
  engine: PointcloudEngine,
  reason: string,
): UnsupportedSourceError {
  return new UnsupportedSourceError(`${where} cannot be read here: ${reason}; ${REMEDY[engine]}`);
}

/**
 * Refuses, at split, a point cloud the deployment's workers cannot read. Refused here it is one
 * line on the run with the tool's own reason; in the workers it would fail every sub-tile and
 * end in the dead-letter queue.
 */
export function checkWorkersCanDecode(header: SourceHeader, engine: PointcloudEngine, where: string): void {
  if (header.kind !== 'pointcloud') return;
  const reason = unreadableBy(engine, header.format, header.pointFormat);
  if (reason) throw engineRefusal(where, engine, reason);
}
