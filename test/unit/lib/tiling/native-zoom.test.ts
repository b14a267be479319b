import { describe, expect, it } from 'vitest';
import { InvalidTileGridError } from '../../../../lib/tiling/errors.js';
import { nativeZoom } from '../../../../lib/tiling/native-zoom.js';
import { resolutionAt } from '../../../../lib/tiling/web-mercator.js';

describe('nativeZoom', () => {
  it('returns z for exactly the resolution of zoom z', () => {
    for (const z of [0, 5, 14, 22]) expect(nativeZoom(resolutionAt(z))).toBe(z);
  });

  it('picks the closest zoom on a log scale', () => {
    // 9.5546 m/px is shade.tif's pixel: exactly zoom 14.
    expect(nativeZoom(9.5546285343)).toBe(14);
    expect(nativeZoom(resolutionAt(10) * 1.4)).toBe(10);
    expect(nativeZoom(resolutionAt(10) * 1.5)).toBe(9);
    expect(nativeZoom(resolutionAt(10) / 1.4)).toBe(10);
  });

  it('clamps to the allowed zooms', () => {
    expect(nativeZoom(0.0001)).toBe(22);
    expect(nativeZoom(1e9)).toBe(0);
    expect(nativeZoom(0.0001, 0, 18)).toBe(18);
  });

  it('rejects a resolution that is not a positive number', () => {
    expect(() => nativeZoom(0)).toThrow(InvalidTileGridError);
    expect(() => nativeZoom(Number.NaN)).toThrow(/not a positive number/);
  });
});
