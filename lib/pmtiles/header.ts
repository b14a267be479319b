/** Bytes of a PMTiles v3 header. */
export const HEADER_BYTES = 127;

/** What a PMTiles v3 header records (offsets and lengths in bytes; bounds in degrees). */
export interface PmtilesHeader {
  readonly rootDirectoryOffset: number;
  readonly rootDirectoryLength: number;
  readonly jsonMetadataOffset: number;
  readonly jsonMetadataLength: number;
  readonly leafDirectoryOffset: number;
  readonly leafDirectoryLength: number;
  readonly tileDataOffset: number;
  readonly tileDataLength: number;
  readonly numAddressedTiles: number;
  readonly numTileEntries: number;
  readonly numTileContents: number;
  readonly clustered: boolean;
  readonly internalCompression: number;
  readonly tileCompression: number;
  readonly tileType: number;
  readonly minZoom: number;
  readonly maxZoom: number;
  readonly minLon: number;
  readonly minLat: number;
  readonly maxLon: number;
  readonly maxLat: number;
  readonly centerZoom: number;
  readonly centerLon: number;
  readonly centerLat: number;
}

/** The header's 127 bytes, little-endian, in the spec's order (read back by the pmtiles package). */
export function serializeHeader(h: PmtilesHeader): Uint8Array {
  const bytes = new Uint8Array(HEADER_BYTES);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode('PMTiles'), 0);
  view.setUint8(7, 3);
  const u64 = [
    h.rootDirectoryOffset,
    h.rootDirectoryLength,
    h.jsonMetadataOffset,
    h.jsonMetadataLength,
    h.leafDirectoryOffset,
    h.leafDirectoryLength,
    h.tileDataOffset,
    h.tileDataLength,
    h.numAddressedTiles,
    h.numTileEntries,
    h.numTileContents,
  ];
  for (const [i, value] of u64.entries()) view.setBigUint64(8 + 8 * i, BigInt(value), true);
  view.setUint8(96, h.clustered ? 1 : 0);
  view.setUint8(97, h.internalCompression);
  view.setUint8(98, h.tileCompression);
  view.setUint8(99, h.tileType);
  view.setUint8(100, h.minZoom);
  view.setUint8(101, h.maxZoom);
  const e7 = (degrees: number) => Math.round(degrees * 1e7);
  view.setInt32(102, e7(h.minLon), true);
  view.setInt32(106, e7(h.minLat), true);
  view.setInt32(110, e7(h.maxLon), true);
  view.setInt32(114, e7(h.maxLat), true);
  view.setUint8(118, h.centerZoom);
  view.setInt32(119, e7(h.centerLon), true);
  view.setInt32(123, e7(h.centerLat), true);
  return bytes;
}
