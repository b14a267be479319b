import type { SourceHeader } from '../source/source-header.js';
import type { SourceValues } from './display-params.js';

/** A source's values as its header says: a raster's band type, a point cloud's z range (its DTM is Float32). */
export function sourceValues(headers: readonly SourceHeader[]): SourceValues {
  const first = headers[0]!;
  if (first.kind === 'raster') return { dataType: first.dataType, bands: first.bands };
  const ranges = headers.flatMap((h) => (h.kind === 'pointcloud' ? [h.zRange] : []));
  return {
    dataType: 'Float32',
    bands: 1,
    range: [Math.min(...ranges.map((r) => r[0])), Math.max(...ranges.map((r) => r[1]))],
  };
}
