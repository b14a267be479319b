import { describe, expect, it } from 'vitest';
import { horizontalWkt } from '../../../../lib/tiling/horizontal-wkt.js';

describe('horizontalWkt', () => {
  it('returns a non-compound WKT unchanged but trimmed of padding NULs', () => {
    expect(horizontalWkt('GEOGCS["WGS 84",DATUM["x"]]\0\0')).toBe('GEOGCS["WGS 84",DATUM["x"]]');
  });

  it('extracts the horizontal node of WKT1 and WKT2 compound CRSs, ignoring brackets in names', () => {
    expect(horizontalWkt('COMPD_CS["a [b]",PROJCS["p ]",X[1]],VERT_CS["v"]]')).toBe('PROJCS["p ]",X[1]]');
    expect(horizontalWkt('COMPOUNDCRS["c",GEOGCRS["g",DATUM["d"]],VERTCRS["v"]]')).toBe(
      'GEOGCRS["g",DATUM["d"]]',
    );
  });
});
