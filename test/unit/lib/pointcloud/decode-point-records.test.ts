import { describe, expect, it } from 'vitest';
import { checkRecordLayout, decodePointRecords } from '../../../../lib/pointcloud/decode-point-records.js';

function record(length: number, fill: (v: DataView) => void): Uint8Array {
  const bytes = new Uint8Array(length);
  fill(new DataView(bytes.buffer));
  return bytes;
}

describe('decodePointRecords', () => {
  it('applies scale and offset, and takes the class from the low 5 bits of byte 15 (formats 0–5)', () => {
    const layout = {
      pointDataRecordFormat: 1,
      pointDataRecordLength: 28,
      scale: [0.01, 0.01, 0.001],
      offset: [1000, 2000, 0],
    } as const;
    const bytes = record(2 * 28, (v) => {
      v.setInt32(0, 12345, true);
      v.setInt32(4, -500, true);
      v.setInt32(8, 406260, true);
      v.setUint8(15, 0b1110_0010); // synthetic, key-point and withheld flags around class 2
      v.setInt32(28, 0, true);
      v.setUint8(28 + 15, 6);
    });
    const batch = decodePointRecords(bytes, 0, 2, layout);
    expect(batch.count).toBe(2);
    expect(batch.x[0]).toBeCloseTo(1123.45, 9);
    expect(batch.y[0]).toBeCloseTo(1995, 9);
    expect(batch.z[0]).toBeCloseTo(406.26, 9);
    expect([...batch.classification]).toEqual([2, 6]);
    expect(batch.x[1]).toBe(1000);
  });

  it('takes the whole byte 16 as the class in formats 6–10', () => {
    const layout = {
      pointDataRecordFormat: 6,
      pointDataRecordLength: 30,
      scale: [1, 1, 1],
      offset: [0, 0, 0],
    } as const;
    const bytes = record(40, (v) => {
      v.setUint8(10 + 15, 0xff); // flags byte of format 6
      v.setUint8(10 + 16, 40); // classes above 31 exist in LAS 1.4
    });
    expect([...decodePointRecords(bytes, 10, 1, layout).classification]).toEqual([40]);
  });
});

describe('checkRecordLayout', () => {
  it('refuses formats LAS does not define and records shorter than their format', () => {
    const layout = { pointDataRecordLength: 34, scale: [1, 1, 1], offset: [0, 0, 0] } as const;
    expect(() => checkRecordLayout({ ...layout, pointDataRecordFormat: 3 })).not.toThrow();
    expect(() => checkRecordLayout({ ...layout, pointDataRecordFormat: 11 })).toThrow(/does not exist/);
    expect(() =>
      checkRecordLayout({ ...layout, pointDataRecordFormat: 3, pointDataRecordLength: 20 }),
    ).toThrow(/corrupt/);
  });
});
