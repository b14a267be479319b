import { describe, expect, it } from 'vitest';
import { rasterWarpOptions } from '../../../../lib/operations/raster-xyz.js';
import { pdalDtmPipeline } from '../../../../lib/pointcloud/pdal-dtm-pipeline.js';
import { normaliseParams, paramsVersion, parseJobParams } from '../../../../lib/split/job-params.js';
import { UnsupportedCrsError } from '../../../../lib/tiling/errors.js';
import { resolveCrs } from '../../../../lib/tiling/resolve-crs.js';
import { overrideSrs, sourceCrsOverride } from '../../../../lib/tiling/source-crs-override.js';

const BOUNDS = { minX: 0, minY: 0, maxX: 100, maxY: 100 };

describe('a source CRS override', () => {
  it('reads EPSG:<code>, a PROJ string or a WKT, and nothing else', () => {
    expect(sourceCrsOverride(' epsg:28992 ')).toEqual({ kind: 'epsg', code: 28992 });
    expect(sourceCrsOverride('+proj=utm +zone=31 +datum=WGS84')).toEqual({
      kind: 'proj',
      proj: '+proj=utm +zone=31 +datum=WGS84',
    });
    expect(sourceCrsOverride('PROJCS["x",GEOGCS["y"]]')).toMatchObject({ kind: 'wkt' });
    expect(() => sourceCrsOverride('Amersfoort')).toThrow(UnsupportedCrsError);
    expect(overrideSrs('epsg:28992')).toBe('EPSG:28992');
    // A PROJ string resolves as proj4 reads it.
    expect(resolveCrs(sourceCrsOverride('+proj=longlat +datum=WGS84')).geographic).toBe(true);
  });

  it("is a job parameter: validated, part of the parameters' version, and never an option", () => {
    const job = parseJobParams('{"sourceCrs":"EPSG:28992"}');
    expect(normaliseParams('pointcloud-dtm', job, 17)).toEqual({ zoom: 17, sourceCrs: 'EPSG:28992' });
    const withIt = paramsVersion('raster-xyz', normaliseParams('raster-xyz', job, 17));
    const without = paramsVersion('raster-xyz', normaliseParams('raster-xyz', {}, 17));
    expect(withIt).not.toBe(without);
    expect(() => parseJobParams('{"sourceCrs":"-co FOO"}')).toThrow(/sourceCrs/);
    expect(() => parseJobParams('{"sourceCrs":""}')).toThrow(/sourceCrs/);
  });

  it('reaches gdalwarp as -s_srs and PDAL as override_srs, in place of the CRS the file says', () => {
    const warp = rasterWarpOptions(BOUNDS, 256, 256, { sourceCrs: 'epsg:31370' });
    expect(warp.slice(0, 2)).toEqual(['-s_srs', 'EPSG:31370']);
    expect(rasterWarpOptions(BOUNDS, 256, 256, {})).not.toContain('-s_srs');
    // What the extractor read from the file.
    const input = {
      source: 'a.las',
      format: 'las' as const,
      sourceBox: [0, 0, 1, 1] as const,
      srs: 'EPSG:2992',
    };
    const options = {
      inputs: [input],
      bounds: BOUNDS,
      buffered: BOUNDS,
      radius: 10,
      power: 2,
      selection: 'ground' as const,
      output: 'out.tif.part',
    };
    expect(pdalDtmPipeline({ ...options, sourceSrs: 'EPSG:28992' }).pipeline[0]).toMatchObject({
      type: 'readers.las',
      override_srs: 'EPSG:28992',
    });
    expect(
      pdalDtmPipeline({ ...options, inputs: [{ ...input, format: 'copc' }], sourceSrs: 'EPSG:28992' })
        .pipeline[0],
    ).toMatchObject({
      type: 'readers.copc',
      override_srs: 'EPSG:28992',
    });
    // Without an override PDAL reads the CRS the extractor found in the file.
    expect(pdalDtmPipeline(options).pipeline[0]).toMatchObject({ override_srs: 'EPSG:2992' });
  });
});
