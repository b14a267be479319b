import { describe, expect, it } from 'vitest';
import { detectFormat, previewBytes } from '../../../../lib/source/detect-format.js';

const bytes = (...b: number[]) => new Uint8Array(b);

describe('detectFormat', () => {
  it('recognises TIFF in both byte orders, BigTIFF and LAS from the magic bytes', () => {
    expect(detectFormat(bytes(0x49, 0x49, 0x2a, 0x00))).toBe('tiff');
    expect(detectFormat(bytes(0x4d, 0x4d, 0x00, 0x2a))).toBe('tiff');
    expect(detectFormat(bytes(0x49, 0x49, 0x2b, 0x00, 8, 0, 0, 0))).toBe('bigtiff');
    expect(detectFormat(bytes(0x4d, 0x4d, 0x00, 0x2b))).toBe('bigtiff');
    expect(detectFormat(new Uint8Array(Buffer.from('LASF\0\0')))).toBe('las');
  });

  it('recognises nothing else, including short inputs', () => {
    expect(detectFormat(new Uint8Array(Buffer.from('hello world')))).toBeUndefined();
    expect(detectFormat(bytes(0x49, 0x49, 0x2a))).toBeUndefined();
    expect(detectFormat(bytes(0x89, 0x50, 0x4e, 0x47))).toBeUndefined();
  });

  it('previews text as a quoted string and binary as hex', () => {
    expect(previewBytes(new Uint8Array(Buffer.from('hello world, this is long text')))).toBe(
      '"hello world, thi"',
    );
    expect(previewBytes(bytes(0x89, 0x50, 0x4e, 0x47))).toBe('0x89504e47');
  });
});
