import type { Header } from 'copc/lib/las/header.js';

/** Public header sizes by minor version: 1.0–1.2 end at 227 bytes, 1.3 adds the waveform offset, 1.4 the EVLRs and 64-bit counts. */
export const LAS_HEADER_LENGTH: Readonly<Record<number, number>> = { 0: 227, 1: 227, 2: 227, 3: 235, 4: 375 };

const text = (bytes: Uint8Array) =>
  Buffer.from(bytes)
    .toString('latin1')
    .replace(/\0[\s\S]*$/, '');
const guid = (b: Uint8Array) => Buffer.from(b).toString('hex');

/**
 * The LAS public header block of any version 1.0 to 1.4, in the shape of the `copc` package's
 * Header (which itself parses 1.2 and 1.4 only), so its VLR walker and point readers work on
 * every version. The version must have been checked: `bytes` holds at least its header length.
 * The compression bits of the point format byte (LAZ) are masked off, as copc does.
 */
export function parseLasPublicHeader(bytes: Uint8Array): Header {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const minor = dv.getUint8(25);
  const f64 = (at: number) => dv.getFloat64(at, true);
  const u64 = (at: number) => Number(dv.getBigUint64(at, true));
  const legacyByReturn = Array.from({ length: 5 }, (_, i) => dv.getUint32(111 + i * 4, true));
  const header: Header = {
    fileSignature: 'LASF',
    fileSourceId: dv.getUint16(4, true),
    globalEncoding: dv.getUint16(6, true),
    projectId: guid(bytes.subarray(8, 24)),
    majorVersion: dv.getUint8(24),
    minorVersion: minor,
    systemIdentifier: text(bytes.subarray(26, 58)),
    generatingSoftware: text(bytes.subarray(58, 90)),
    fileCreationDayOfYear: dv.getUint16(90, true),
    fileCreationYear: dv.getUint16(92, true),
    headerLength: dv.getUint16(94, true),
    pointDataOffset: dv.getUint32(96, true),
    vlrCount: dv.getUint32(100, true),
    pointDataRecordFormat: dv.getUint8(104) & 0b1111,
    pointDataRecordLength: dv.getUint16(105, true),
    pointCount: dv.getUint32(107, true),
    pointCountByReturn: legacyByReturn,
    scale: [f64(131), f64(139), f64(147)],
    offset: [f64(155), f64(163), f64(171)],
    min: [f64(187), f64(203), f64(219)],
    max: [f64(179), f64(195), f64(211)],
    waveformDataOffset: minor >= 3 ? u64(227) : 0,
    evlrOffset: 0,
    evlrCount: 0,
  };
  if (minor < 4) return header;
  // LAS 1.4: the legacy count is 0 for formats 6–10 and for more than 2^32 points.
  const count = u64(247);
  return {
    ...header,
    pointCount: count > 0 ? count : header.pointCount,
    pointCountByReturn: Array.from({ length: 15 }, (_, i) => u64(255 + i * 8)),
    evlrOffset: u64(235),
    evlrCount: dv.getUint32(243, true),
  };
}
