/**
 * Writes small, valid LAS files of any version 1.0–1.4 and point format 0–10, as the LAS
 * specification lays them out: public header, projection VLRs (GeoKeyDirectory and/or OGC WKT),
 * a waveform packet descriptor and the waveform data (internal: after the points in 1.3, in an
 * EVLR in 1.4) for the waveform formats 4, 5, 9 and 10. Tests make their inputs with it rather
 * than ship binaries.
 */

export interface LasPoint {
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly classification: number;
}

export interface LasOptions {
  readonly minor: 0 | 1 | 2 | 3 | 4;
  readonly format: number;
  readonly points: readonly LasPoint[];
  readonly epsg?: number;
  readonly wkt?: string;
  readonly scale?: number;
  readonly offset?: readonly [number, number, number];
  /**
   * A LAZ shell: the compression bit, LASzip's VLR and a chunk table that holds the points, around
   * points left uncompressed. Every reader that looks at the layout (geohub's split) takes it for
   * LAZ; only a decoder would find the points are not compressed.
   */
  readonly laz?: boolean;
  /** Header bounds to write instead of the points' own (to make an impossible header). */
  readonly bounds?: { readonly min: readonly number[]; readonly max: readonly number[] };
}

const HEADER = { 0: 227, 1: 227, 2: 227, 3: 235, 4: 375 } as const;
const RECORD = [20, 28, 26, 34, 57, 63, 30, 36, 38, 59, 67] as const;
const WAVEFORM_FORMATS = new Set([4, 5, 9, 10]);
const SAMPLES = 16;

function vlr(userId: string, recordId: number, content: Uint8Array, extended = false): Uint8Array {
  const head = extended ? 60 : 54;
  const out = new Uint8Array(head + content.byteLength);
  const dv = new DataView(out.buffer);
  out.set(Buffer.from(userId.padEnd(16, '\0').slice(0, 16), 'latin1'), 2);
  dv.setUint16(18, recordId, true);
  if (extended) dv.setBigUint64(20, BigInt(content.byteLength), true);
  else dv.setUint16(20, content.byteLength, true);
  out.set(Buffer.from('geohub test'.padEnd(32, '\0'), 'latin1'), extended ? 28 : 22);
  out.set(content, head);
  return out;
}

function geoKeys(epsg: number): Uint8Array {
  const projected = !(epsg >= 4000 && epsg < 5000);
  const keys = projected ? [1024, 0, 1, 1, 3072, 0, 1, epsg] : [1024, 0, 1, 2, 2048, 0, 1, epsg];
  const shorts = Uint16Array.from([1, 1, 0, keys.length / 4, ...keys]);
  return new Uint8Array(shorts.buffer);
}

const LAZ_CHUNK = 50_000;

/** LASzip's VLR content: compressor 2 (chunked), coder 0, version 3.4, fixed chunks of 50,000. */
function laszipContent(): Uint8Array {
  const out = new Uint8Array(34);
  const dv = new DataView(out.buffer);
  dv.setUint16(0, 2, true);
  dv.setUint8(4, 3);
  dv.setUint8(5, 4);
  dv.setUint32(12, LAZ_CHUNK, true);
  dv.setBigInt64(16, -1n, true);
  dv.setBigInt64(24, -1n, true);
  return out;
}

function waveformDescriptor(): Uint8Array {
  const out = new Uint8Array(26);
  const dv = new DataView(out.buffer);
  dv.setUint8(0, 8); // bits per sample
  dv.setUint32(2, SAMPLES, true);
  dv.setUint32(6, 1000, true); // picoseconds between samples
  dv.setFloat64(10, 1, true);
  return out;
}

function pointRecord(
  p: LasPoint,
  i: number,
  o: Required<Pick<LasOptions, 'format' | 'scale' | 'offset'>>,
): Uint8Array {
  const out = new Uint8Array(RECORD[o.format]!);
  const dv = new DataView(out.buffer);
  dv.setInt32(0, Math.round((p.x - o.offset[0]) / o.scale), true);
  dv.setInt32(4, Math.round((p.y - o.offset[1]) / o.scale), true);
  dv.setInt32(8, Math.round((p.z - o.offset[2]) / o.scale), true);
  dv.setUint16(12, 100, true);
  if (o.format >= 6) {
    dv.setUint8(14, 0x11); // return 1 of 1
    dv.setUint8(16, p.classification);
  } else {
    dv.setUint8(14, 0x09); // return 1 of 1
    dv.setUint8(15, p.classification & 0x1f);
  }
  if (WAVEFORM_FORMATS.has(o.format)) {
    const at = out.byteLength - 29;
    dv.setUint8(at, 1); // descriptor index (VLR record 100 + 1 - 1)
    dv.setBigUint64(at + 1, BigInt(60 + i * SAMPLES), true); // from the start of the waveform record
    dv.setUint32(at + 9, SAMPLES, true);
    dv.setFloat32(at + 13, 1000, true);
  }
  return out;
}

export function lasBytes(options: LasOptions): Uint8Array {
  const { minor, format, points } = options;
  const scale = options.scale ?? 0.01;
  const offset = options.offset ?? [0, 0, 0];
  const headerLength = HEADER[minor];
  const waveform = WAVEFORM_FORMATS.has(format);
  const vlrs: Uint8Array[] = [];
  if (options.epsg !== undefined) vlrs.push(vlr('LASF_Projection', 34735, geoKeys(options.epsg)));
  if (options.wkt !== undefined)
    vlrs.push(vlr('LASF_Projection', 2112, Buffer.from(`${options.wkt}\0`, 'utf8')));
  if (waveform) vlrs.push(vlr('LASF_Spec', 100, waveformDescriptor()));
  if (options.laz) vlrs.push(vlr('laszip encoded', 22204, laszipContent()));
  const records = points.map((p, i) => pointRecord(p, i, { format, scale, offset }));
  const vlrBytes = vlrs.reduce((n, v) => n + v.byteLength, 0);
  const pointDataOffset = headerLength + vlrBytes;
  // A LAZ shell's points are framed by the chunk table's offset before and the table after.
  const pointBytes = records.length * RECORD[format]! + (options.laz ? 16 : 0);
  const waveData = waveform
    ? vlr('LASF_Spec', 65535, new Uint8Array(points.length * SAMPLES).fill(7), true)
    : undefined;
  const total = pointDataOffset + pointBytes + (waveData?.byteLength ?? 0);
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  out.set(Buffer.from('LASF', 'latin1'), 0);
  let encoding = waveform ? 0b10 : 0; // bit 1: waveform data internal
  if (minor === 4 && format >= 6) encoding |= 0b10000; // bit 4: the CRS is WKT
  dv.setUint16(6, encoding, true);
  dv.setUint8(24, 1);
  dv.setUint8(25, minor);
  out.set(Buffer.from('geohub test'.padEnd(32, '\0'), 'latin1'), 26);
  dv.setUint16(94, headerLength, true);
  dv.setUint32(96, pointDataOffset, true);
  dv.setUint32(100, vlrs.length, true);
  dv.setUint8(104, format | (options.laz ? 0x80 : 0));
  dv.setUint16(105, RECORD[format]!, true);
  const legacyCount = minor === 4 && format >= 6 ? 0 : points.length;
  dv.setUint32(107, legacyCount, true);
  dv.setUint32(111, legacyCount, true);
  for (const [i, v] of [scale, scale, scale, ...offset].entries()) dv.setFloat64(131 + i * 8, v, true);
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const zs = points.map((p) => p.z);
  const min = options.bounds?.min ?? [Math.min(...xs), Math.min(...ys), Math.min(...zs)];
  const max = options.bounds?.max ?? [Math.max(...xs), Math.max(...ys), Math.max(...zs)];
  for (let axis = 0; axis < 3; axis += 1) {
    dv.setFloat64(179 + axis * 16, max[axis]!, true);
    dv.setFloat64(187 + axis * 16, min[axis]!, true);
  }
  const waveAt = pointDataOffset + pointBytes;
  if (minor >= 3 && waveform) dv.setBigUint64(227, BigInt(waveAt), true);
  if (minor === 4) {
    if (waveData) {
      dv.setBigUint64(235, BigInt(waveAt), true);
      dv.setUint32(243, 1, true);
    }
    dv.setBigUint64(247, BigInt(points.length), true);
    dv.setBigUint64(255, BigInt(points.length), true);
  }
  let at = headerLength;
  for (const v of vlrs) {
    out.set(v, at);
    at += v.byteLength;
  }
  if (options.laz) {
    dv.setBigInt64(at, BigInt(pointDataOffset + pointBytes - 8), true);
    at += 8;
  }
  for (const r of records) {
    out.set(r, at);
    at += r.byteLength;
  }
  if (options.laz) {
    dv.setUint32(at + 4, Math.max(1, Math.ceil(points.length / LAZ_CHUNK)), true); // version 0, chunks
    at += 8;
  }
  if (waveData) out.set(waveData, at);
  return out;
}

/** A square of ground points (class 2) on a gentle slope: `side` × `side` points `spacing` apart. */
export function groundGrid(x0: number, y0: number, side: number, spacing: number): LasPoint[] {
  const points: LasPoint[] = [];
  for (let j = 0; j < side; j += 1) {
    for (let i = 0; i < side; i += 1) {
      points.push({
        x: x0 + i * spacing,
        y: y0 + j * spacing,
        z: 100 + i * 0.1 + j * 0.05,
        classification: 2,
      });
    }
  }
  return points;
}
