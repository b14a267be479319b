import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type PlannedMember, planCollection } from '../../../../lib/collection/plan-collection.js';
import { readSourceHeader } from '../../../../lib/source/read-source-header.js';
import { TooManyTilesError } from '../../../../lib/split/errors.js';
import { planTiles } from '../../../../lib/split/plan-tiles.js';
import { localFileStore } from '../../../../lib/store/file-store.js';
import type { Bbox } from '../../../../lib/tiling/bbox.js';
import { tileRanges } from '../../../../lib/tiling/tile-ranges.js';
import { tempDir } from '../../../support/temp-dir.js';

const RGB = new URL('../../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;

async function planned(path: string): Promise<PlannedMember> {
  const store = localFileStore(path);
  const { header } = await readSourceHeader(store, store.key);
  return { header, plan: planTiles(header, undefined, path) };
}

const id = (t: { z: number; x: number; y: number }) => `${t.z}/${t.x}/${t.y}`;

describe('planCollection: the union of the members, one plan', () => {
  it('two members in different UTM zones are planned as GDAL warps a mosaic of both', async () => {
    const dir = tempDir('geohub-utm-');
    // RGB.byte.tif is in UTM 18N; its eastern quarter, moved 400 km east and written in UTM 19N
    // by GDAL, is a second sheet of the survey in the next zone.
    const east = join(dir, 'east-19n.tif');
    const shifted = join(dir, 'shifted.tif');
    execFileSync('gdal_translate', [
      '-q',
      '-srcwin',
      '395',
      '0',
      '396',
      '718',
      '-a_ullr',
      '620500',
      '2826915',
      '739315',
      '2611485',
      RGB,
      shifted,
    ]);
    execFileSync('gdalwarp', ['-q', '-t_srs', 'EPSG:32619', shifted, east]);
    const members = [await planned(RGB), await planned(east)];
    expect(members.map((m) => m.plan.crs)).toEqual([
      expect.stringContaining('32618'),
      expect.stringContaining('32619'),
    ]);

    const zoom = 10;
    const plan = planCollection(members, zoom, 'survey', 1_000_000);
    const metatiles = [...plan.metatiles(id, 16)];
    const tiles = metatiles.flatMap((m) => m.tiles);
    expect(tiles).toHaveLength(plan.total);
    expect(new Set(tiles.map((t) => t.id)).size).toBe(plan.total);

    // GDAL's own answer: both warped to EPSG:3857 as one mosaic; its extent is the union's.
    const merged = join(dir, 'merged.tif');
    execFileSync('gdalwarp', ['-q', '-t_srs', 'EPSG:3857', RGB, east, merged]);
    const info = JSON.parse(execFileSync('gdalinfo', ['-json', merged], { encoding: 'utf8' })) as {
      cornerCoordinates: { upperLeft: [number, number]; lowerRight: [number, number] };
    };
    const { upperLeft: ul, lowerRight: lr } = info.cornerCoordinates;
    const gdalBbox: Bbox = [ul[0], lr[1], lr[0], ul[1]];
    const [gdalRange] = tileRanges(gdalBbox, zoom);
    const xs = tiles.map((t) => t.x);
    const ys = tiles.map((t) => t.y);
    expect({
      minX: Math.min(...xs),
      maxX: Math.max(...xs),
      minY: Math.min(...ys),
      maxY: Math.max(...ys),
    }).toEqual({
      minX: gdalRange!.minX,
      maxX: gdalRange!.maxX,
      minY: gdalRange!.minY,
      maxY: gdalRange!.maxY,
    });
    // Every tile is one a member covers, and names exactly the members it lies over.
    const own = members.map((m) => tileRanges(m.plan.bbox3857, zoom));
    const over = (t: { x: number; y: number }) =>
      own.flatMap((ranges, i) =>
        ranges.some((r) => t.x >= r.minX && t.x <= r.maxX && t.y >= r.minY && t.y <= r.maxY) ? [i] : [],
      );
    for (const m of metatiles) {
      for (const t of m.tiles) expect(over(t).length, id(t)).toBeGreaterThan(0);
      expect(m.members).toEqual([...new Set(m.tiles.flatMap(over))].sort());
    }
    // Each member is under some metatile.
    expect(new Set(metatiles.flatMap((m) => m.members ?? []))).toEqual(new Set([0, 1]));
    // The gap between the sheets' footprints holds no tile: not made, as GDAL makes none there.
    const gaps = [];
    for (let y = gdalRange!.minY; y <= gdalRange!.maxY; y++)
      for (let x = gdalRange!.minX; x <= gdalRange!.maxX; x++)
        if (over({ x, y }).length === 0) gaps.push(`${x}/${y}`);
    expect(plan.total).toBe(
      (gdalRange!.maxX - gdalRange!.minX + 1) * (gdalRange!.maxY - gdalRange!.minY + 1) - gaps.length,
    );
  });

  it('refuses a plan over the cap before writing anything, naming the zoom', async () => {
    const members = [await planned(RGB)];
    expect(() => planCollection(members, 14, 'survey', 1_000)).toThrow(TooManyTilesError);
    expect(() => planCollection(members, 14, 'survey', 1_000)).toThrow(
      /survey at zoom 14 needs more than 1,000 sub-tiles/,
    );
  });
});
