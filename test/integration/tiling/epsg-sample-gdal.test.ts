import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSourceHeader } from '../../../lib/source/read-source-header.js';
import { planTiles } from '../../../lib/split/plan-tiles.js';
import { UnsupportedCrsError } from '../../../lib/tiling/errors.js';
import type { TileRange } from '../../../lib/tiling/tile-range.js';
import { seededRandom } from '../../../local/faults/seeded-random.js';
import { crsOracle, epsgCrs, type OracleCase } from '../../support/crs-oracle.js';
import { createMemoryStore } from '../../support/memory-store.js';

/*
 * geohub's XYZ cover against GDAL's own, over a seeded random draw of the EPSG registry's
 * projected CRSs (every method, region and unit, as drawn) and over rasters GDAL writes from PROJ
 * strings with no EPSG code (user-defined GeoKeys, ESRI PE strings). The oracle
 * (test/support/crs-oracle.py) makes each raster with GDAL and computes the zoom gdalwarp
 * suggests and the tiles under the boundary as PROJ transforms it. GEOHUB_CRS_SAMPLE raises the
 * draw (the default keeps this file within a couple of minutes on two cores).
 */

const SAMPLE = Number(process.env.GEOHUB_CRS_SAMPLE ?? 300);
const SEED = 13;
const scratch = mkdtempSync(join(tmpdir(), 'geohub-crs-sample-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Rasters GDAL writes from PROJ strings (no EPSG code): centre lon, lat and width in degrees. */
const PROJ_STRINGS: readonly [string, string, [number, number, number]][] = [
  ['tmerc', '+proj=tmerc +lat_0=0 +lon_0=9 +k=0.9996 +x_0=500000 +ellps=GRS80', [9.5, 48, 2]],
  ['lcc-usft', '+proj=lcc +lat_1=33 +lat_2=45 +lat_0=39 +lon_0=-96 +ellps=clrk66 +units=us-ft', [-95, 38, 5]],
  [
    'lcc-1sp-paris',
    '+proj=lcc +lat_1=46.8 +lat_0=46.8 +lon_0=0 +k_0=0.99987742 +x_0=600000 +y_0=2200000 +a=6378249.2 +b=6356515 +pm=paris',
    [2.5, 46.5, 3],
  ],
  ['aea', '+proj=aea +lat_1=29.5 +lat_2=45.5 +lat_0=23 +lon_0=-96 +ellps=GRS80', [-100, 40, 20]],
  ['laea', '+proj=laea +lat_0=52 +lon_0=10 +x_0=4321000 +y_0=3210000 +ellps=GRS80', [15, 50, 10]],
  ['stere-north', '+proj=stere +lat_0=90 +lat_ts=70 +lon_0=-45 +ellps=WGS84', [-45, 75, 60]],
  ['stere-south-pole', '+proj=stere +lat_0=-90 +k=0.994 +lon_0=0 +datum=WGS84', [0, -80, 90]],
  [
    'sterea',
    '+proj=sterea +lat_0=52.15616 +lon_0=5.38764 +k=0.9999079 +x_0=155000 +y_0=463000 +ellps=bessel',
    [5.4, 52.2, 1],
  ],
  [
    'omerc-b',
    '+proj=omerc +lat_0=4 +lonc=102.25 +alpha=323.0257905 +k=0.99984 +x_0=804671 +ellps=evrst69',
    [102, 4, 2],
  ],
  [
    'cass-links',
    '+proj=cass +lat_0=10.44166 +lon_0=-61.33333 +x_0=86501.46 +y_0=65379.01 +a=6378293.645 +b=6356617.987 +to_meter=0.201166195164',
    [-61.3, 10.5, 0.5],
  ],
  ['poly', '+proj=poly +lat_0=0 +lon_0=-54 +ellps=aust_SA', [-54, -10, 5]],
  ['eqdc', '+proj=eqdc +lat_1=20 +lat_2=60 +lat_0=40 +lon_0=-96 +datum=NAD83', [-96, 45, 10]],
  ['merc-lat-ts', '+proj=merc +lon_0=100 +lat_ts=10 +datum=WGS84', [105, 5, 5]],
  ['eqc', '+proj=eqc +lat_ts=30 +lon_0=0 +datum=WGS84', [20, 30, 10]],
  ['robin', '+proj=robin +lon_0=0 +datum=WGS84', [0, 0, 200]],
  ['sinu-modis', '+proj=sinu +lon_0=0 +R=6371007.181', [10, 45, 10]],
  ['aeqd', '+proj=aeqd +lat_0=40 +lon_0=-100 +datum=WGS84', [-100, 40, 10]],
  ['gnom', '+proj=gnom +lat_0=30 +lon_0=0 +datum=WGS84', [0, 30, 20]],
  ['ortho', '+proj=ortho +lat_0=40 +lon_0=10 +datum=WGS84', [10, 40, 30]],
  ['cea', '+proj=cea +lat_ts=30 +lon_0=0 +datum=WGS84', [0, 10, 20]],
  ['mill', '+proj=mill +lon_0=0 +datum=WGS84', [30, 20, 30]],
  ['nzmg', '+proj=nzmg +lat_0=-41 +lon_0=173 +x_0=2510000 +y_0=6023150 +ellps=intl', [174, -41, 2]],
  [
    'utm60s-antimeridian',
    '+proj=utm +zone=60 +south +ellps=intl +towgs84=-115.8,474.99,327.74,0,0,0,0',
    [179.5, -17, 3],
  ],
  ['tmerc-180', '+proj=tmerc +lon_0=180 +k=1 +x_0=500000 +ellps=GRS80', [180, -40, 4]],
  ['longlat-paris', '+proj=longlat +ellps=intl +pm=paris', [0, 45, 2]],
  [
    'tmerc-ft',
    '+proj=tmerc +lat_0=49 +lon_0=-2 +k=0.9996012717 +x_0=400000 +y_0=-100000 +ellps=airy +units=ft',
    [-1, 52, 1],
  ],
];
/** Geostationary full disks (GOES-East, Himawari): the corners are off the Earth. */
const FULL_DISKS: readonly OracleCase[] = [
  {
    id: 'geos-goes',
    srs: '+proj=geos +h=35786023 +lon_0=-75 +sweep=x +ellps=GRS80',
    gt: [-5434894.885, 2004.0173, 0, 5434894.885, 0, -2004.0173],
    size: [5424, 5424],
  },
  {
    id: 'geos-himawari',
    srs: '+proj=geos +h=35785831 +lon_0=140.7 +ellps=WGS84',
    gt: [-5500000, 2000, 0, 5500000, 0, -2000],
    size: [5500, 5500],
  },
];

interface Outcome {
  readonly id: string;
  readonly agrees?: boolean;
  readonly zoomAgrees?: boolean;
  readonly zoomDetail?: string;
  readonly refused?: string;
  readonly detail?: string;
}

const canonical = (ranges: readonly TileRange[]) =>
  ranges.map((r) => `z${r.z} x${r.minX}-${r.maxX} y${r.minY}-${r.maxY}`).join(' + ');

async function compare(cases: readonly OracleCase[], signal: AbortSignal): Promise<Outcome[]> {
  const answers = await crsOracle(scratch, cases, signal);
  const outcomes: Outcome[] = [];
  for (const c of cases) {
    const answer = answers.get(c.id);
    if (!answer || 'error' in answer) {
      outcomes.push({
        id: c.id,
        detail: `GDAL itself: ${answer && 'error' in answer ? answer.error : 'no answer'}`,
      });
      continue;
    }
    const store = createMemoryStore('sample');
    store.putBytes('src', new Uint8Array(readFileSync(answer.file)));
    const { header } = await readSourceHeader(store, 'src');
    if (!header.crs) {
      // GDAL keeps CRSs that GeoKeys cannot hold (col_urban, …) in a side file, not in the TIFF.
      outcomes.push({ id: c.id, detail: 'GDAL wrote no GeoKeys for it' });
      continue;
    }
    try {
      const plan = planTiles(header, answer.zoom, c.id);
      const agrees = canonical(plan.ranges) === canonical(answer.ranges);
      outcomes.push({
        id: c.id,
        agrees,
        zoomAgrees: plan.nativeZoom === answer.zoom,
        zoomDetail: `native zoom: geohub ${plan.nativeZoom}, gdalwarp ${answer.zoom}`,
        detail: agrees ? undefined : `geohub ${canonical(plan.ranges)}, GDAL ${canonical(answer.ranges)}`,
      });
    } catch (error) {
      if (error instanceof UnsupportedCrsError) outcomes.push({ id: c.id, refused: error.message });
      else
        outcomes.push({
          id: c.id,
          agrees: false,
          detail: `${(error as Error).name}: ${(error as Error).message}`,
        });
    }
  }
  return outcomes;
}

function figures(label: string, outcomes: readonly Outcome[]) {
  const planned = outcomes.filter((o) => o.agrees !== undefined);
  const agree = planned.filter((o) => o.agrees).length;
  const zoom = planned.filter((o) => o.zoomAgrees).length;
  const refused = outcomes.filter((o) => o.refused);
  console.log(
    `${label}: ${outcomes.length} drawn, ${planned.length} planned, ${agree} covers equal to GDAL's ` +
      `(${((100 * agree) / Math.max(1, planned.length)).toFixed(1)} %), ${zoom} native zooms equal, ` +
      `${refused.length} refused, ${outcomes.length - planned.length - refused.length} GDAL could not make or wrote without GeoKeys`,
  );
  for (const o of planned.filter((x) => !x.zoomAgrees)) console.log(`  ${o.id}: ${o.zoomDetail}`);
  for (const o of outcomes.filter((x) => x.agrees === false || x.refused))
    console.log(`  ${o.id}: ${o.detail ?? o.refused}`);
  return { planned, agree, zoom, refused };
}

/** A seeded random draw of `n` codes of the registry, each placed at random in its area of use. */
async function draw(kind: 'projected' | 'geographic', n: number): Promise<OracleCase[]> {
  const pool = [...(await epsgCrs(kind))];
  const random = seededRandom(SEED);
  const cases: OracleCase[] = [];
  while (cases.length < n && pool.length > 0) {
    const [code] = pool.splice(Math.floor(random() * pool.length), 1)[0]!;
    cases.push({
      id: `epsg-${code}`,
      srs: `EPSG:${code}`,
      u: 0.3 + 0.4 * random(),
      v: 0.3 + 0.4 * random(),
      fraction: 0.02 + 0.2 * random(),
    });
  }
  return cases;
}

const REFUSAL =
  /^epsg-\d+: EPSG:\d+ \(.+\) cannot be reprojected: (its projection method .+ is not one proj4 implements|the EPSG registry geohub ships \(epsg-index\) has no definition of it)$/;

describe('tile covers across the EPSG registry, against GDAL', () => {
  it(`a seeded draw of ${SAMPLE} projected EPSG CRSs: ≥ 99 % equal covers, the rest refused naming why`, {
    timeout: 600_000,
  }, async ({ signal }) => {
    const cases = await draw('projected', SAMPLE);
    const { planned, agree, zoom, refused } = figures('EPSG sample', await compare(cases, signal));
    expect(planned.length).toBeGreaterThanOrEqual(0.95 * SAMPLE);
    expect(agree / planned.length).toBeGreaterThanOrEqual(0.99);
    // The native zoom rounds log2 of a resolution: one near a half-way point may round either way.
    expect(zoom / planned.length).toBeGreaterThanOrEqual(0.97);
    for (const r of refused) expect(r.refused).toMatch(REFUSAL);
  });

  it('a seeded draw of 60 geographic EPSG CRSs (datums, prime meridians, angular units)', async ({
    signal,
  }) => {
    const { planned, agree, refused } = figures(
      'EPSG geographic sample',
      await compare(await draw('geographic', 60), signal),
    );
    expect(planned.length).toBeGreaterThanOrEqual(57);
    expect(agree / planned.length).toBeGreaterThanOrEqual(0.99);
    for (const r of refused) expect(r.refused).toMatch(REFUSAL);
  });

  it('rasters from PROJ strings with no EPSG code, geostationary full disks, a global and an antimeridian raster', async ({
    signal,
  }) => {
    const cases: OracleCase[] = [
      ...PROJ_STRINGS.map(([id, srs, lonlat]) => ({ id, srs, lonlat })),
      ...FULL_DISKS,
      { id: 'global-4326', srs: 'EPSG:4326', gt: [-180, 0.5, 0, 90, 0, -0.5], size: [720, 360] },
    ];
    const outcomes = await compare(cases, signal);
    const { planned, agree } = figures('PROJ strings', outcomes);
    expect(planned.length).toBe(cases.length);
    expect(agree).toBe(cases.length);
  });
});
