import { describe, expect, it } from 'vitest';
import { InvalidOperationParamsError } from '../../../../lib/operations/errors.js';
import {
  DEFAULT_POWER,
  DEFAULT_RADIUS_PIXELS,
  dtmParams,
  MAX_RADIUS_PIXELS,
  MIN_DEFAULT_RADIUS_M,
} from '../../../../lib/pointcloud/dtm-params.js';

describe('dtmParams', () => {
  it('defaults to a radius of 8 pixels, at least 10 m, and power 2', () => {
    expect(dtmParams({}, 2)).toEqual({ radius: DEFAULT_RADIUS_PIXELS * 2, power: DEFAULT_POWER });
    expect(dtmParams({}, 0.3)).toEqual({ radius: MIN_DEFAULT_RADIUS_M, power: 2 });
  });

  it('takes a radius and power, and ignores what belongs to others (zoom, resolution)', () => {
    expect(dtmParams({ zoom: 17, resolution: 0.5, radius: 4, power: 1 }, 1.19)).toEqual({
      radius: 4,
      power: 1,
    });
  });

  it('clamps the radius to 64 pixels: it bounds the points read around a tile', () => {
    expect(dtmParams({ radius: 1e6 }, 1)).toEqual({ radius: MAX_RADIUS_PIXELS, power: 2 });
  });

  it('refuses values that must never reach a tool argument', () => {
    for (const params of [
      { radius: -1 },
      { radius: '5;rm' },
      { radius: Number.POSITIVE_INFINITY },
      { power: 99 },
    ]) {
      expect(() => dtmParams(params, 1)).toThrow(InvalidOperationParamsError);
    }
  });
});
