import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import {
  STAC_EXTENSIONS,
  stacCollection,
  stacItem,
  wgs84Bbox,
} from '../../../../lib/coordination/stac-catalog.js';
import { tileBounds } from '../../../../lib/tiling/tile-bounds.js';
import { stacValidator } from '../../../support/stac-schemas.js';

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

  it('are valid STAC 1.0.0 with every extension they declare, as is the collection (schemas vendored)', () => {
    const validate = stacValidator();
    const dates = { datetime: '2015-09-10T00:00:00Z', created: '2026-01-01T00:00:00.000Z' };
    for (const [z, x, y] of [
      [0, 0, 0],
      [18, 131_071, 0],
      [12, 836, 1556],
    ] as const) {
      const item = stacItem(
        'r-abcdefgh',
        { z, x, y, bytes: 689 },
        dates,
        `../../../tiles/r-abcdefgh/${z}/${x}/${y}.tif`,
      );
      expect(validate(item), `${z}/${x}/${y}`).toEqual([]);
    }
    const collection = stacCollection({
      runId: 'r-abcdefgh',
      description: 'raster-xyz tiles of dated.tif (geohub run r-abcdefgh): 4 tiles at zoom 12',
      bbox: wgs84Bbox(12, 836, 1556, 837, 1557),
      interval: ['2015-09-10T00:00:00Z', '2015-09-10T00:00:00Z'],
      itemParts: ['items/13-24.json'],
    });
    expect(validate(collection)).toEqual([]);
    // The validator does reject: a datetime that is no date, an undeclared field's wrong type.
    const bad = stacItem(
      'r-abcdefgh',
      { z: 1, x: 0, y: 0, bytes: 1 },
      { ...dates, datetime: 'yesterday' },
      'x.tif',
    );
    expect(validate(bad).join('\n')).toMatch(/datetime/);
    const badSize = stacItem('r-abcdefgh', { z: 1, x: 0, y: 0, bytes: -1 }, dates, 'x.tif');
    expect(validate(badSize).join('\n')).toMatch(/file\/v2\.1\.0/);
  });
});
