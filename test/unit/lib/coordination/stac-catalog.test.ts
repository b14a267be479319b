import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import {
  COG_TYPE,
  itemGroup,
  STAC_EXTENSIONS,
  stacBlockCatalog,
  stacItem,
  wgs84Bbox,
} from '../../../../lib/coordination/stac-catalog.js';
import { stacCollection } from '../../../../lib/coordination/stac-collection.js';
import { tileBounds } from '../../../../lib/tiling/tile-bounds.js';
import { stacValidator } from '../../../support/stac-schemas.js';

const dates = { datetime: '2015-09-10T00:00:00Z', created: '2026-01-01T00:00:00.000Z' };
/** The item of the 4×4 group holding tile z/x/y, with `count` tiles of it along its first row. */
function itemAt(z: number, x: number, y: number, count = 1, bytes = 689) {
  const group = itemGroup(x, y);
  const tiles = Array.from({ length: count }, (_, i) => ({
    x: group.gx * 4 + i,
    y,
    bytes,
    href: `../../../../tiles/r-abcdefgh/${z}/${group.gx * 4 + i}/${y}.tif`,
  }));
  return stacItem('r-abcdefgh', z, group, tiles, dates);
}

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

  it('one item per aligned 4×4 group, each tile an asset with its grid and the COG profile', () => {
    const item = itemAt(12, 836, 1556, 4);
    expect(item.id).toBe('r-abcdefgh-12-209-389');
    expect(Object.keys(item.assets)).toEqual(['12/836/1556', '12/837/1556', '12/838/1556', '12/839/1556']);
    const b = tileBounds(12, 837, 1556);
    const res = (b.maxX - b.minX) / 256;
    expect(item.assets['12/837/1556']).toMatchObject({
      type: COG_TYPE,
      'proj:shape': [256, 256],
      'proj:transform': [res, 0, b.minX, 0, -res, b.maxY],
      'proj:bbox': [b.minX, b.minY, b.maxX, b.maxY],
    });
    // The item's footprint is its tiles' union.
    expect(item.bbox).toEqual(wgs84Bbox(12, 836, 1556, 839, 1556));
  });

  it('declares an extension for every prefixed field it uses', () => {
    const item = itemAt(3, 1, 2);
    const prefixed = [
      ...Object.keys(item.properties),
      ...Object.values(item.assets).flatMap((a) => Object.keys(a)),
    ].filter((k) => k.includes(':'));
    const declared = new Set(
      Object.entries(STAC_EXTENSIONS)
        .filter(([, url]) => item.stac_extensions.includes(url))
        .map(([prefix]) => prefix),
    );
    expect(prefixed.length).toBeGreaterThan(0);
    for (const field of prefixed) expect(declared.has(field.split(':')[0] as string), field).toBe(true);
  });

  it('items, block catalogs and the collection are valid STAC 1.0.0 with every extension they declare', () => {
    const validate = stacValidator();
    for (const [z, x, y] of [
      [0, 0, 0],
      [18, 131_071, 0],
      [12, 836, 1556],
    ] as const)
      expect(validate(itemAt(z, x, y)), `${z}/${x}/${y}`).toEqual([]);
    expect(validate(stacBlockCatalog('r-abcdefgh', { bx: 13, by: 24 }, ['12-209-389.json']))).toEqual([]);
    const collection = stacCollection({
      runId: 'r-abcdefgh',
      sourceName: 'dated.tif',
      description: 'raster-xyz tiles of dated.tif (geohub run r-abcdefgh): 4 tiles at zoom 12',
      bbox: wgs84Bbox(12, 836, 1556, 837, 1557),
      interval: ['2015-09-10T00:00:00Z', '2015-09-10T00:00:00Z'],
      children: ['items/13-24/catalog.json'],
      mosaic: true,
    });
    expect(validate(collection)).toEqual([]);
    expect(collection.title).toBe('dated.tif, tiled by geohub');
    expect(collection.assets).toHaveProperty('mosaic.href', './mosaic.vrt');
  });

  it('the validator refuses a bad date, a bad field of a declared extension and a field of an undeclared one', () => {
    const validate = stacValidator();
    const bad = { ...itemAt(1, 0, 0), properties: { ...itemAt(1, 0, 0).properties, datetime: 'yesterday' } };
    expect(validate(bad).join('\n')).toMatch(/datetime/);
    expect(validate(itemAt(1, 0, 0, 1, -1)).join('\n')).toMatch(/file\/v2\.1\.0/);
    // A copy that drops the File extension from its declaration but keeps `file:size`.
    const undeclared = { ...itemAt(1, 0, 0), stac_extensions: [STAC_EXTENSIONS.proj] };
    expect(validate(undeclared).join('\n')).toMatch(
      /file:size: defined by no extension the document declares/,
    );
    // And a field of an extension the catalogue never uses, put into the collection.
    const collection = stacCollection({
      runId: 'r-abcdefgh',
      sourceName: 'a.tif',
      description: 'd',
      bbox: [0, 0, 1, 1],
      interval: ['2015-09-10T00:00:00Z', '2015-09-10T00:00:00Z'],
      children: [],
      mosaic: false,
    });
    const withCloud: typeof collection & Record<string, unknown> = { ...collection, 'eo:cloud_cover': 3 };
    expect(validate(withCloud).join('\n')).toMatch(/eo:cloud_cover/);
  });
});
