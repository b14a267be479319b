/** A minimal little-endian classic TIFF with one IFD of SHORT/LONG/DOUBLE tags, for crafted-header tests. */
export interface TiffTag {
  readonly tag: number;
  readonly type: 'SHORT' | 'LONG' | 'DOUBLE';
  readonly values: readonly number[];
}

const SIZES = { SHORT: 2, LONG: 4, DOUBLE: 8 } as const;
const CODES = { SHORT: 3, LONG: 4, DOUBLE: 12 } as const;

export function tiffBytes(tags: readonly TiffTag[]): Uint8Array {
  const sorted = [...tags].sort((a, b) => a.tag - b.tag);
  const ifdSize = 2 + sorted.length * 12 + 4;
  const extraSize = sorted.reduce((n, t) => {
    const bytes = SIZES[t.type] * t.values.length;
    return n + (bytes > 4 ? bytes : 0);
  }, 0);
  const buffer = new ArrayBuffer(8 + ifdSize + extraSize);
  const view = new DataView(buffer);
  view.setUint8(0, 0x49);
  view.setUint8(1, 0x49);
  view.setUint16(2, 42, true);
  view.setUint32(4, 8, true);
  view.setUint16(8, sorted.length, true);
  let extra = 8 + ifdSize;
  const write = (at: number, type: TiffTag['type'], v: number) => {
    if (type === 'SHORT') view.setUint16(at, v, true);
    else if (type === 'LONG') view.setUint32(at, v, true);
    else view.setFloat64(at, v, true);
  };
  sorted.forEach((t, i) => {
    const at = 10 + i * 12;
    view.setUint16(at, t.tag, true);
    view.setUint16(at + 2, CODES[t.type], true);
    view.setUint32(at + 4, t.values.length, true);
    const bytes = SIZES[t.type] * t.values.length;
    if (bytes <= 4) {
      for (const [j, v] of t.values.entries()) write(at + 8 + j * SIZES[t.type], t.type, v);
    } else {
      view.setUint32(at + 8, extra, true);
      for (const [j, v] of t.values.entries()) write(extra + j * SIZES[t.type], t.type, v);
      extra += bytes;
    }
  });
  view.setUint32(10 + sorted.length * 12, 0, true);
  return new Uint8Array(buffer);
}

/** The baseline tags of a one-strip, one-band Byte image of the given size. */
export function baselineTags(width: number, height: number): TiffTag[] {
  return [
    { tag: 256, type: 'LONG', values: [width] },
    { tag: 257, type: 'LONG', values: [height] },
    { tag: 258, type: 'SHORT', values: [8] },
    { tag: 259, type: 'SHORT', values: [1] },
    { tag: 262, type: 'SHORT', values: [1] },
    { tag: 273, type: 'LONG', values: [8] },
    { tag: 277, type: 'SHORT', values: [1] },
    { tag: 278, type: 'LONG', values: [height] },
    { tag: 279, type: 'LONG', values: [0] },
  ];
}
