/** A synthetic LAS 1.2 file (point format 0) in UTM zone 10N (EPSG:32610), for extractor tests. */
export interface SyntheticPoint {
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly classification: number;
}

const HEADER = 227;
const VLR_HEADER = 54;
const RECORD = 20;

export function syntheticLas(points: readonly SyntheticPoint[], options: { epsg?: number } = {}): Uint8Array {
  const keys = options.epsg === undefined ? undefined : [1, 1, 0, 2, 1024, 0, 1, 1, 3072, 0, 1, options.epsg];
  const vlrBytes = keys ? VLR_HEADER + keys.length * 2 : 0;
  const offset = HEADER + vlrBytes;
  const bytes = new Uint8Array(offset + points.length * RECORD);
  const v = new DataView(bytes.buffer);
  bytes.set(Buffer.from('LASF'), 0);
  v.setUint8(24, 1);
  v.setUint8(25, 2);
  v.setUint16(94, HEADER, true);
  v.setUint32(96, offset, true);
  v.setUint32(100, keys ? 1 : 0, true);
  v.setUint8(104, 0);
  v.setUint16(105, RECORD, true);
  v.setUint32(107, points.length, true);
  const scale = 0.01;
  for (const at of [131, 139, 147]) v.setFloat64(at, scale, true);
  const min = (k: 'x' | 'y' | 'z') => Math.min(...points.map((p) => p[k]));
  const max = (k: 'x' | 'y' | 'z') => Math.max(...points.map((p) => p[k]));
  v.setFloat64(179, max('x'), true);
  v.setFloat64(187, min('x'), true);
  v.setFloat64(195, max('y'), true);
  v.setFloat64(203, min('y'), true);
  v.setFloat64(211, max('z'), true);
  v.setFloat64(219, min('z'), true);
  if (keys) {
    bytes.set(Buffer.from('LASF_Projection'), HEADER + 2);
    v.setUint16(HEADER + 18, 34735, true);
    v.setUint16(HEADER + 20, keys.length * 2, true);
    for (const [i, k] of keys.entries()) v.setUint16(HEADER + VLR_HEADER + i * 2, k, true);
  }
  points.forEach((p, i) => {
    const at = offset + i * RECORD;
    v.setInt32(at, Math.round(p.x / scale), true);
    v.setInt32(at + 4, Math.round(p.y / scale), true);
    v.setInt32(at + 8, Math.round(p.z / scale), true);
    v.setUint8(at + 15, p.classification);
  });
  return bytes;
}

/** A 200 m × 200 m grid of points every 2 m around (500 000, 4 877 000) in UTM 10N (≈ 44.04° N, 123° W). */
export function gridPoints(classify: (i: number, j: number) => number): SyntheticPoint[] {
  const points: SyntheticPoint[] = [];
  for (let i = 0; i <= 100; i += 1) {
    for (let j = 0; j <= 100; j += 1) {
      const classification = classify(i, j);
      // Ground on a gentle slope; anything else 20 m above it (a canopy, a roof).
      const z = 100 + i * 0.02 + (classification === 2 || classification <= 1 ? 0 : 20);
      points.push({ x: 499_900 + i * 2, y: 4_876_900 + j * 2, z, classification });
    }
  }
  return points;
}
