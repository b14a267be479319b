import { describe, expect, it } from 'vitest';
import { renderStyleOf } from '../../../../../../local/server/page/render/render-style.js';

const band = (n: number, type: string, colorInterpretation?: string) => ({
  band: n,
  type,
  colorInterpretation,
});

describe('renderStyleOf', () => {
  it('draws three byte bands as RGB with the nodata mask as alpha', () => {
    const info = { bands: [band(1, 'Byte', 'Red'), band(2, 'Byte', 'Green'), band(3, 'Byte', 'Blue')] };
    expect(renderStyleOf('raster-xyz', info)).toEqual({ kind: 'rgb', bands: [1, 2, 3], alpha: 'mask' });
  });

  it('keeps an alpha band as the alpha', () => {
    const info = { bands: [band(1, 'Byte'), band(2, 'Byte'), band(3, 'Byte'), band(4, 'Byte', 'Alpha')] };
    expect(renderStyleOf('raster-xyz', info)).toEqual({ kind: 'rgb', bands: [1, 2, 3, 4], alpha: 'band' });
  });

  it('ramps one band, and bands that are not bytes', () => {
    expect(renderStyleOf('raster-xyz', { bands: [band(1, 'Float32')] })).toEqual({ kind: 'ramp' });
    const uint16 = { bands: [band(1, 'UInt16'), band(2, 'UInt16'), band(3, 'UInt16')] };
    expect(renderStyleOf('raster-xyz', uint16)).toEqual({ kind: 'ramp' });
  });

  it('shades a terrain model', () => {
    expect(renderStyleOf('pointcloud-dtm', { bands: [band(1, 'Float32')] })).toEqual({ kind: 'hillshade' });
  });
});
