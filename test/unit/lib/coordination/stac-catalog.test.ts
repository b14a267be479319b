import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { STAC_EXTENSIONS, stacItem, wgs84Bbox } from '../../../../lib/coordination/stac-catalog.js';
import { tileBounds } from '../../../../lib/tiling/tile-bounds.js';

describe('STAC items', () => {
  it('bounds match proj4’s EPSG:3857 → EPSG:4326 to a nanodegree, poles of the grid included', () => {
    for (const [z, x, y] of [
      [0, 0, 0],
      [12, 836, 1556],
      [18, 131_071, 0],
      [5, 31, 31],
    ] as const) {
      const b = tileBounds(z, x, y);
      const [w, s] = proj4('EPSG:3857', 'EPSG:4326', [b.minX, b.minY]) as [number, number];
      const [e, n] = proj4('EPSG:3857', 'EPSG:4326', [b.maxX, b.maxY]) as [number, number];
      const got = wgs84Bbox(z, x, y, x, y);
      for (const [i, v] of [w, s, e, n].entries()) expect(got[i]).toBeCloseTo(v, 9);
    }
  });

  it('declares an extension for every prefixed field it uses', () => {
    const item = stacItem(
      'r-abcdefgh',
      { z: 3, x: 1, y: 2, bytes: 10 },
      { datetime: '2015-09-10T00:00:00Z', created: '2026-01-01T00:00:00Z' },
      'x.tif',
    );
    const prefixed = [...Object.keys(item.properties), ...Object.keys(item.assets.data)].filter((k) =>
      k.includes(':'),
    );
    const declared = new Set(
      Object.entries(STAC_EXTENSIONS)
        .filter(([, url]) => item.stac_extensions.includes(url))
        .map(([prefix]) => prefix),
    );
    expect(prefixed.length).toBeGreaterThan(0);
    for (const field of prefixed) expect(declared.has(field.split(':')[0] as string), field).toBe(true);
  });
});
