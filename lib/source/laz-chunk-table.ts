import type { BlockReader } from './block-reader.js';
import { CorruptHeaderError, TruncatedSourceError } from './errors.js';

/** LASzip's VLR ("laszip encoded", record 22204): the chunk size sits at byte 12 of its content. */
export const LASZIP_VLR = { userId: 'laszip encoded', recordId: 22204 } as const;
/** A chunk size of 2^32 − 1: chunks of varying length (COPC), whose counts are inside the compressed table. */
const VARIABLE_CHUNKS = 0xffffffff;

const fmt = (n: number) => n.toLocaleString('en-US');

export interface LazLayout {
  readonly where: string;
  readonly size: number;
  readonly pointDataOffset: number;
  readonly pointCount: number;
  /** The LASzip VLR's content, as read. */
  readonly laszip: Uint8Array;
}

/**
 * Checks what a LAZ file's own chunk table says against its header, with two ranged reads: the
 * table's offset (the first 8 bytes of the point data, or the file's last 8 where a streaming
 * writer put it) must lie inside the object, and a fixed chunk size times the table's chunk count
 * must hold the points the header claims. PDAL 2.8.4 (LASzip) reading a truncated LAZ, or one whose
 * header claims more points than it holds, does not fail: it runs until its budget ends, in every
 * sub-tile. Refused here, it is one line on the run before any work is queued.
 */
export async function checkLazChunkTable(reader: BlockReader, laz: LazLayout): Promise<void> {
  const { where, size } = laz;
  if (laz.laszip.byteLength < 16) throw new CorruptHeaderError(`${where}: its LASzip VLR is too short`);
  const chunkSize = new DataView(laz.laszip.buffer, laz.laszip.byteOffset, 16).getUint32(12, true);
  if (laz.pointDataOffset + 8 > size)
    throw new TruncatedSourceError(`${where}: the compressed points start past the end of the object`);
  let tableOffset = bigToNumber(await reader.read(laz.pointDataOffset, 8));
  // -1: written by a streaming encoder, which keeps the offset in the file's last 8 bytes.
  if (tableOffset === -1) tableOffset = bigToNumber(await reader.read(size - 8, 8));
  if (tableOffset < laz.pointDataOffset + 8 || tableOffset + 8 > size) {
    throw new TruncatedSourceError(
      `${where}: its LAZ chunk table should be at byte ${fmt(tableOffset)}, the object has ${fmt(size)} bytes; ` +
        'the file is truncated',
    );
  }
  const table = await reader.read(tableOffset, 8);
  const chunks = new DataView(table.buffer, table.byteOffset, 8).getUint32(4, true);
  if (chunkSize === VARIABLE_CHUNKS || chunkSize === 0) return;
  const capacity = chunks * chunkSize;
  if (laz.pointCount > capacity) {
    throw new CorruptHeaderError(
      `${where}: the header claims ${fmt(laz.pointCount)} points, its LAZ chunk table holds at most ` +
        `${fmt(capacity)} (${chunks} chunks of ${fmt(chunkSize)})`,
    );
  }
}

function bigToNumber(bytes: Uint8Array): number {
  const value = new DataView(bytes.buffer, bytes.byteOffset, 8).getBigInt64(0, true);
  return value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(value);
}
