import { describe, expect, it } from 'vitest';
import { bboxCorners } from '../../../../lib/tiling/bbox.js';
import { checkCrsBounds } from '../../../../lib/tiling/check-crs-bounds.js';
import { BoundsOutsideCrsError } from '../../../../lib/tiling/errors.js';
import { resolveCrs } from '../../../../lib/tiling/resolve-crs.js';

describe('checkCrsBounds', () => {
  const wgs84 = resolveCrs({ kind: 'epsg', code: 4326 });

  it('accepts longitudes in −180…180 or 0…360 and a whole world edge to edge', () => {
    expect(() => checkCrsBounds(bboxCorners([-180, -90, 180, 90]), wgs84, 'f')).not.toThrow();
    expect(() => checkCrsBounds(bboxCorners([0, -90, 360, 90]), wgs84, 'f')).not.toThrow();
    expect(() => checkCrsBounds(bboxCorners([-180.25, -90.25, 180.25, 90.25]), wgs84, 'f')).not.toThrow();
  });

  it('refuses in one line bounds that cannot be degrees (a LAS file declaring EPSG:4326 over 1…226)', () => {
    expect(() => checkCrsBounds(bboxCorners([1, 1, 226, 226]), wgs84, 'cloud.las')).toThrow(
      BoundsOutsideCrsError,
    );
    expect(() => checkCrsBounds(bboxCorners([1, 1, 226, 226]), wgs84, 'cloud.las')).toThrow(
      /^cloud\.las: its bounds \(x 1 to 226, y 1 to 226\) cannot be in its declared CRS EPSG:4326 \(WGS 84\), whose coordinates are degrees/,
    );
    expect(() => checkCrsBounds(bboxCorners([-200, 0, -190, 1]), wgs84, 'f')).toThrow(BoundsOutsideCrsError);
  });

  it('leaves projected CRSs alone (metres and feet have no such bound)', () => {
    const utm = resolveCrs({ kind: 'epsg', code: 32610 });
    expect(() => checkCrsBounds(bboxCorners([1, 1, 226, 226]), utm, 'f')).not.toThrow();
  });
});
