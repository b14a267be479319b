import { describe, expect, it } from 'vitest';
import { bboxCorners } from '../../../../lib/tiling/bbox.js';
import { densifyRing, reprojectFootprint } from '../../../../lib/tiling/reproject-footprint.js';
import { resolveCrs } from '../../../../lib/tiling/resolve-crs.js';
import { ORIGIN_SHIFT } from '../../../../lib/tiling/web-mercator.js';

describe('reprojectFootprint', () => {
  it('densifies each edge to the requested number of points, corners once', () => {
    const ring = bboxCorners([0, 0, 20, 10]);
    const dense = densifyRing(ring, 21);
    expect(dense).toHaveLength(4 * 20);
    expect(dense[1]).toEqual([1, 0]);
  });

  it('finds the bulge of a curved edge that the corners alone miss', () => {
    // A UTM box across its central meridian: the northern edge bows northwards in the middle.
    const crs = resolveCrs({ kind: 'epsg', code: 32618 });
    const ring = bboxCorners([300000, 5000000, 700000, 5400000]);
    const corners = reprojectFootprint(ring, crs, 2)!;
    const dense = reprojectFootprint(ring, crs, 21)!;
    expect(dense[3]).toBeGreaterThan(corners[3]);
    expect(dense[0]).toBeCloseTo(corners[0], 3);
  });

  it('leaves a Web Mercator footprint exactly as it is (no round trip through degrees)', () => {
    const bbox = [-11858134.818413004, 4803914.353, -11848350.879, 4813698.2926443005] as const;
    expect(reprojectFootprint(bboxCorners(bbox), resolveCrs({ kind: 'epsg', code: 3857 }))).toEqual(bbox);
  });

  it('clamps to the Mercator latitude limit: a polar box becomes a line', () => {
    const crs = resolveCrs({ kind: 'epsg', code: 4326 });
    const polar = reprojectFootprint(bboxCorners([0, -89, 1, -86]), crs)!;
    expect(polar[1]).toBeCloseTo(-ORIGIN_SHIFT, 3);
    expect(polar[3]).toBeCloseTo(-ORIGIN_SHIFT, 3);
    const straddling = reprojectFootprint(bboxCorners([0, 80, 1, 89]), crs)!;
    expect(straddling[3]).toBeCloseTo(ORIGIN_SHIFT, 3);
    expect(straddling[1]).toBeLessThan(ORIGIN_SHIFT - 1000);
  });

  it('drops points outside the projection domain and returns undefined when none is left', () => {
    const crs = resolveCrs({ kind: 'epsg', code: 4326 });
    expect(reprojectFootprint(bboxCorners([Number.NaN, 0, Number.NaN, 1]), crs)).toBeUndefined();
  });

  it('unwraps a footprint across the antimeridian: its x runs past one edge of the map', () => {
    // UTM zone 60 south around Fiji, 300 km wide across 180°.
    const crs = resolveCrs({ kind: 'epsg', code: 32760 });
    const [minX, , maxX] = reprojectFootprint(bboxCorners([700000, 8000000, 1000000, 8200000]), crs)!;
    const acrossEast = minX < ORIGIN_SHIFT && maxX > ORIGIN_SHIFT;
    const acrossWest = minX < -ORIGIN_SHIFT && maxX > -ORIGIN_SHIFT;
    expect(acrossEast || acrossWest).toBe(true);
    expect(maxX - minX).toBeLessThan(ORIGIN_SHIFT / 10);
  });

  it('spans every longitude up to the clamp when the pole is inside (Antarctic polar stereographic)', () => {
    const crs = resolveCrs({ kind: 'epsg', code: 3031 });
    const box = reprojectFootprint(bboxCorners([-1000000, -1000000, 1000000, 1000000]), crs)!;
    expect(box[0]).toBeCloseTo(-ORIGIN_SHIFT, 3);
    expect(box[2]).toBeCloseTo(ORIGIN_SHIFT, 3);
    expect(box[1]).toBeCloseTo(-ORIGIN_SHIFT, 3);
    expect(box[3]).toBeLessThan(-ORIGIN_SHIFT / 2);
  });

  it('takes the visible Earth of a geostationary full disk, limb included, not an error', () => {
    const crs = resolveCrs({
      kind: 'wkt',
      wkt: 'PROJCS["g",EXTENSION["PROJ4","+proj=geos +h=35786023 +lon_0=-75 +sweep=x +ellps=GRS80"]]',
    });
    const half = 5434894.885;
    const [minX, minY, maxX, maxY] = reprojectFootprint(bboxCorners([-half, -half, half, half]), crs)!;
    // The limb is about 81.3° of arc from the sub-satellite point (-75°, 0°).
    const lon = (x: number) => (x / ORIGIN_SHIFT) * 180;
    expect(lon(minX)).toBeGreaterThan(-75 - 81.5);
    expect(lon(minX)).toBeLessThan(-75 - 81);
    expect(lon(maxX)).toBeGreaterThan(-75 + 81);
    expect(lon(maxX)).toBeLessThan(-75 + 81.5);
    expect(maxY).toBeCloseTo(-minY, 0);
  });
});
