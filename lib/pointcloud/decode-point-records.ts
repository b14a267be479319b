/** Points decoded from LAS records: coordinates in the source CRS and units, and the class. */
export interface PointBatch {
  readonly count: number;
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly z: Float64Array;
  readonly classification: Uint8Array;
}

/** What decoding a record needs from the LAS header. */
export interface RecordLayout {
  readonly pointDataRecordFormat: number;
  readonly pointDataRecordLength: number;
  readonly scale: readonly [number, number, number];
  readonly offset: readonly [number, number, number];
}

/** Smallest record of each point data record format (LAS 1.4 table), extra bytes excluded. */
const MIN_RECORD_LENGTH = [20, 28, 26, 34, 57, 63, 30, 36, 38, 59, 67] as const;

/** Throws unless records of this layout can be decoded (a corrupt header must not read garbage). */
export function checkRecordLayout(layout: RecordLayout): void {
  const format = layout.pointDataRecordFormat;
  const minimum = MIN_RECORD_LENGTH[format as 0];
  if (minimum === undefined) {
    throw new RangeError(`point data record format ${format} does not exist (LAS knows 0–10)`);
  }
  if (layout.pointDataRecordLength < minimum) {
    throw new RangeError(
      `point data record format ${format} needs at least ${minimum} bytes per record, the header says ` +
        `${layout.pointDataRecordLength}: the file is corrupt`,
    );
  }
}

/**
 * Decodes X, Y, Z and the classification of `count` consecutive records starting at `byteOffset`.
 * Only these four fields are read: everything else in a record is irrelevant to a DTM. Formats
 * 0–5 keep the class in the low 5 bits of byte 15; formats 6–10 have a whole byte at 16.
 */
export function decodePointRecords(
  bytes: Uint8Array,
  byteOffset: number,
  count: number,
  layout: RecordLayout,
): PointBatch {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = layout.pointDataRecordLength;
  const [sx, sy, sz] = layout.scale;
  const [ox, oy, oz] = layout.offset;
  const extended = layout.pointDataRecordFormat >= 6;
  const x = new Float64Array(count);
  const y = new Float64Array(count);
  const z = new Float64Array(count);
  const classification = new Uint8Array(count);
  for (let i = 0, at = byteOffset; i < count; i += 1, at += length) {
    x[i] = view.getInt32(at, true) * sx + ox;
    y[i] = view.getInt32(at + 4, true) * sy + oy;
    z[i] = view.getInt32(at + 8, true) * sz + oz;
    classification[i] = extended ? view.getUint8(at + 16) : view.getUint8(at + 15) & 0x1f;
  }
  return { count, x, y, z, classification };
}
