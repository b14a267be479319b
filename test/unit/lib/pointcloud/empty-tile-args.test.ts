import { describe, expect, it } from 'vitest';
import { emptyTileArgs } from '../../../../lib/pointcloud/empty-tile-args.js';
import { tileBounds } from '../../../../lib/tiling/tile-bounds.js';

describe('emptyTileArgs', () => {
  it('creates a 256×256 Float32 all-nodata GTiff with the tile as its corners, north-up', () => {
    const b = tileBounds(17, 20000, 47000);
    const args = emptyTileArgs(b, '/out/x.tif.part');
    const valuesOf = (flag: string, n = 1) => args.slice(args.indexOf(flag) + 1, args.indexOf(flag) + 1 + n);
    expect(valuesOf('-of')).toEqual(['GTiff']);
    expect(valuesOf('-outsize', 2)).toEqual(['256', '256']);
    expect(valuesOf('-bands')).toEqual(['1']);
    expect(valuesOf('-ot')).toEqual(['Float32']);
    expect(valuesOf('-burn')).toEqual(['-9999']);
    expect(valuesOf('-a_nodata')).toEqual(['-9999']);
    expect(valuesOf('-a_srs')).toEqual(['EPSG:3857']);
    // upper-left then lower-right: north-up by construction
    expect(valuesOf('-a_ullr', 4)).toEqual([b.minX, b.maxY, b.maxX, b.minY].map(String));
    expect(valuesOf('-co')).toEqual(['COMPRESS=DEFLATE']);
    expect(args.at(-1)).toBe('/out/x.tif.part');
  });
});
