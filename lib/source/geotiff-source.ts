import type { GeoTIFF } from 'geotiff';
import type { BlockReader } from './block-reader.js';

/** The source type GeoTIFF.fromSource takes (geotiff does not export BaseSource itself). */
export type GeoTiffSource = Parameters<typeof GeoTIFF.fromSource>[0];

interface Slice {
  readonly offset: number;
  readonly length: number;
}

/**
 * Adapts a BlockReader to geotiff's source interface, so every byte geotiff reads is a cached
 * ranged GET through our ObjectStore: no HTTP client of its own, no credentials of its own.
 * geotiff asks for more than it needs near the end of a file (1024 bytes for an IFD); those
 * reads are clamped to the object's size and the parser sees the true, shorter slice.
 */
export function geoTiffSourceFor(reader: BlockReader): GeoTiffSource {
  const slice = async (s: Slice): Promise<ArrayBuffer> => {
    const bytes = await reader.read(s.offset, s.length);
    // geotiff wraps the buffer in a DataView at offset 0: hand it an exact, unshared copy.
    return bytes.slice().buffer as ArrayBuffer;
  };
  const source = {
    async fetch(slices: readonly Slice[]): Promise<ArrayBuffer[]> {
      return Promise.all(slices.map(slice));
    },
    async fetchSlice(s: Slice) {
      return { offset: s.offset, length: s.length, data: await slice(s) };
    },
    get fileSize() {
      return reader.size;
    },
    async close() {},
  };
  return source satisfies GeoTiffSource;
}
