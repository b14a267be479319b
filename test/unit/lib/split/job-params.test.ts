import { describe, expect, it } from 'vitest';
import { InvalidJobParamsError } from '../../../../lib/split/errors.js';
import {
  normaliseParams,
  paramsVersion,
  parseJobParams,
  sidecarKeyFor,
  zoomLevels,
} from '../../../../lib/split/job-params.js';

describe('parseJobParams', () => {
  it('accepts an empty sidecar and every documented field', () => {
    expect(parseJobParams('{}')).toEqual({});
    expect(
      parseJobParams('{"operation":"raster-xyz","zoom":14,"resampling":"cubic","transformer":"exact"}'),
    ).toEqual({ operation: 'raster-xyz', zoom: 14, resampling: 'cubic', transformer: 'exact' });
  });

  it('rejects unknown keys instead of ignoring them', () => {
    expect(() => parseJobParams('{"zoom":3,"outdir":"/tmp"}', 'in/a.tif.job.json')).toThrow(
      /^in\/a.tif.job.json is not a valid job: \(root\): Unrecognized key: "outdir"$/,
    );
  });

  it('rejects values outside the enums and ranges, so nothing can look like an option', () => {
    expect(() => parseJobParams('{"resampling":"-co"}')).toThrow(InvalidJobParamsError);
    expect(() => parseJobParams('{"resampling":"bilinear -wo X"}')).toThrow(/resampling/);
    expect(() => parseJobParams('{"zoom":-1}')).toThrow(/zoom/);
    expect(() => parseJobParams('{"zoom":23}')).toThrow(/zoom/);
    expect(() => parseJobParams('{"zoom":"14"}')).toThrow(/zoom/);
    expect(() => parseJobParams('{"zoom":1.5}')).toThrow(/zoom/);
    expect(() => parseJobParams('{"operation":"rm -rf"}')).toThrow(/operation/);
    expect(() => parseJobParams('{"transformer":"0"}')).toThrow(/transformer/);
  });

  it('takes a zoom range "min-max" as a pyramid, low to high, within the levels', () => {
    expect(parseJobParams('{"zoom":"10-17","overviewResampling":"mode"}')).toEqual({
      zoom: '10-17',
      overviewResampling: 'mode',
    });
    expect(zoomLevels('10-17')).toEqual({ min: 10, max: 17 });
    expect(zoomLevels(9)).toEqual({ min: 9, max: 9 });
    expect(zoomLevels(undefined)).toBeUndefined();
    expect(() => parseJobParams('{"zoom":"17-10"}')).toThrow(/low to high/);
    expect(() => parseJobParams('{"zoom":"3-23"}')).toThrow(/at most 22/);
    expect(() => parseJobParams('{"zoom":"3-"}')).toThrow(/zoom/);
    expect(() => parseJobParams('{"zoom":"-3-4"}')).toThrow(/zoom/);
    expect(() => parseJobParams('{"overviewResampling":"-co"}')).toThrow(/overviewResampling/);
  });

  it('lists every problem at once', () => {
    expect(() => parseJobParams('{"zoom":99,"resampling":"x"}')).toThrow(/zoom: .*; resampling: /);
  });

  it('rejects text that is not JSON, and oversized sidecars', () => {
    expect(() => parseJobParams('zoom=3')).toThrow(/is not JSON/);
    expect(() => parseJobParams(`{"zoom":3${' '.repeat(5000)}}`)).toThrow(/a sidecar is at most 4096/);
  });

  it('names the sidecar of a key', () => {
    expect(sidecarKeyFor('incoming/a.tif')).toBe('incoming/a.tif.job.json');
  });
});

describe('normaliseParams and paramsVersion', () => {
  it('fills the default resampling, transformer and the resolved zoom', () => {
    expect(normaliseParams('raster-xyz', {}, 12)).toEqual({
      resampling: 'bilinear',
      transformer: 'approximate',
      zoom: 12,
    });
    expect(normaliseParams('raster-xyz', { transformer: 'exact' }, 12)).toMatchObject({
      transformer: 'exact',
    });
    expect(normaliseParams('pointcloud-dtm', {}, 17)).toEqual({ zoom: 17 });
  });

  it("records a pyramid's lowest level and overview resampling, and nothing new for one level", () => {
    expect(normaliseParams('raster-xyz', {}, 12, 8)).toEqual({
      resampling: 'bilinear',
      transformer: 'approximate',
      zoom: 12,
      minZoom: 8,
      overviewResampling: 'average',
    });
    expect(normaliseParams('pointcloud-dtm', { overviewResampling: 'near' }, 17, 15)).toEqual({
      zoom: 17,
      minZoom: 15,
      overviewResampling: 'near',
    });
    expect(() => normaliseParams('raster-xyz', { overviewResampling: 'near' }, 12)).toThrow(/zoom range/);
  });

  it('refuses resampling or a transformer on a point cloud job', () => {
    expect(() => normaliseParams('pointcloud-dtm', { resampling: 'near' }, 17)).toThrow(
      'resampling applies to raster-xyz, not to pointcloud-dtm',
    );
    expect(() => normaliseParams('pointcloud-dtm', { transformer: 'exact' }, 17)).toThrow(
      'transformer applies to raster-xyz, not to pointcloud-dtm',
    );
  });

  it('gives the same version for the same effective parameters, another for others', () => {
    const a = paramsVersion('raster-xyz', normaliseParams('raster-xyz', {}, 12));
    const b = paramsVersion(
      'raster-xyz',
      normaliseParams('raster-xyz', { resampling: 'bilinear', zoom: 12 }, 12),
    );
    expect(a).toMatch(/^[0-9a-f]{12}$/);
    expect(b).toBe(a);
    expect(
      paramsVersion('raster-xyz', { zoom: 12, transformer: 'approximate', resampling: 'bilinear' }),
    ).toBe(a);
    const exact = normaliseParams('raster-xyz', { transformer: 'exact' }, 12);
    expect(paramsVersion('raster-xyz', exact)).not.toBe(a);
    expect(paramsVersion('raster-xyz', normaliseParams('raster-xyz', { resampling: 'near' }, 12))).not.toBe(
      a,
    );
    expect(paramsVersion('pointcloud-dtm', { zoom: 12 })).not.toBe(paramsVersion('raster-xyz', { zoom: 12 }));
  });
});
