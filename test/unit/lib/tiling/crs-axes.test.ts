import { describe, expect, it } from 'vitest';
import { fileAxes, fromEastNorth, toEastNorth } from '../../../../lib/tiling/crs-axes.js';

describe('fileAxes', () => {
  it('reads the axes as GDAL reads a file: a north-first CRS east first, any other order as declared', () => {
    expect(fileAxes('enu')).toBe('en');
    expect(fileAxes(undefined)).toBe('en');
    // Latitude/longitude and northing/easting CRSs: GDAL's traditional GIS order swaps them.
    expect(fileAxes('neu')).toBe('en');
    expect(fileAxes('nwu')).toBe('wn');
    // South African Lo zones and S-JTSK / Krovak: read as declared (GDAL's mapping is [1, 2]).
    expect(fileAxes('wsu')).toBe('ws');
    expect(fileAxes('swu')).toBe('sw');
    // A polar CRS's "north along 90°E" pair is no east/north pair: proj4's plain easting/northing.
    expect(fileAxes('nnu')).toBe('en');
    expect(fileAxes('ssu')).toBe('en');
  });
});

describe('toEastNorth / fromEastNorth', () => {
  it('negates a westing or southing and swaps a southing-first pair, and back', () => {
    expect(toEastNorth('ws', [10000, 3700000])).toEqual([-10000, -3700000]);
    expect(toEastNorth('sw', [1045000, 743000])).toEqual([-743000, -1045000]);
    expect(toEastNorth('wn', [5, 7])).toEqual([-5, 7]);
    expect(toEastNorth('en', [5, 7])).toEqual([5, 7]);
    for (const axes of ['en', 'es', 'wn', 'ws', 'se', 'sw', 'ne', 'nw'] as const) {
      expect(fromEastNorth(axes, toEastNorth(axes, [3, -4]))).toEqual([3, -4]);
    }
  });
});
