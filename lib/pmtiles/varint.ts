/**
 * Appends `value` (a non-negative integer up to 2^53) as an unsigned LEB128 varint, the encoding
 * of PMTiles directories. Division, not bit shifts: tile ids and offsets pass 2^32.
 */
export function pushVarint(out: number[], value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`varint of ${value}`);
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}
