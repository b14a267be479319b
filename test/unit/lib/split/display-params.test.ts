import { describe, expect, it } from 'vitest';
import { normaliseDisplay } from '../../../../lib/split/display-params.js';
import { InvalidJobParamsError } from '../../../../lib/split/errors.js';
import { parseJobParams } from '../../../../lib/split/job-params.js';

const byteRgb = { dataType: 'Byte', bands: 3 };
const dtm = { dataType: 'Float32', bands: 1, range: [12.5, 407] as const };

describe('display tiles options', () => {
  it('adds nothing for GeoTIFF tiles, and refuses display options on them', () => {
    expect(normaliseDisplay({}, byteRgb, 'a.tif')).toEqual({});
    expect(normaliseDisplay({ format: 'gtiff' }, byteRgb, 'a.tif')).toEqual({});
    expect(() => normaliseDisplay({ rescale: [0, 1] }, dtm, 'a.tif')).toThrow(
      /rescale applies to display tiles/,
    );
    expect(() => normaliseDisplay({ colormap: 'viridis' }, dtm, 'a.tif')).toThrow(InvalidJobParamsError);
  });

  it("shows 8-bit data as it is, other data rescaled from the given range or the header's", () => {
    expect(normaliseDisplay({ format: 'png' }, byteRgb, 'a.tif')).toEqual({ format: 'png' });
    expect(normaliseDisplay({ format: 'webp' }, dtm, 'c.laz')).toEqual({
      format: 'webp',
      rescale: [12.5, 407],
    });
    expect(normaliseDisplay({ format: 'png', rescale: [0, 100], colormap: 'terrain' }, dtm, 'c.laz')).toEqual(
      {
        format: 'png',
        rescale: [0, 100],
        colormap: 'terrain',
      },
    );
  });

  it('refuses what it cannot show: no range for non-8-bit data, a ramp over several bands', () => {
    expect(() => normaliseDisplay({ format: 'png' }, { dataType: 'Float32', bands: 1 }, 'f.tif')).toThrow(
      /f.tif is Float32, and its header records no value range: png tiles need "rescale": \[min, max\]/,
    );
    expect(() => normaliseDisplay({ format: 'png', colormap: 'gray' }, byteRgb, 'a.tif')).toThrow(
      /colormap applies to one band; a.tif has 3/,
    );
  });

  it("validates the sidecar's display options like every other", () => {
    expect(parseJobParams('{"format":"png","rescale":[0,255],"colormap":"viridis"}')).toEqual({
      format: 'png',
      rescale: [0, 255],
      colormap: 'viridis',
    });
    expect(() => parseJobParams('{"format":"jpeg"}')).toThrow(/format/);
    expect(() => parseJobParams('{"rescale":[5,1]}')).toThrow(/min < max/);
    expect(() => parseJobParams('{"rescale":[1]}')).toThrow(/rescale/);
    expect(() => parseJobParams('{"colormap":"-co"}')).toThrow(/colormap/);
  });
});
