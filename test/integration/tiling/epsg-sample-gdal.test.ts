import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSourceHeader } from '../../../lib/source/read-source-header.js';
import { EmptyFootprintError, MissingCrsError } from '../../../lib/split/errors.js';
import { planTiles } from '../../../lib/split/plan-tiles.js';
import { epsgCodes, epsgEntry } from '../../../lib/tiling/epsg-database.js';
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
  // GDAL writes user-defined GeoKeys with ProjCoordTransGeoKey 27: x is a westing, y a southing.
  ['tmerc-south-orientated', '+proj=tmerc +axis=wsu +lat_0=0 +lon_0=19 +k=1 +ellps=WGS84', [18.9, -33.4, 1]],
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
  /** geohub's one-line refusal (UnsupportedCrsError, or MissingCrsError when the TIFF holds no CRS). */
  readonly refused?: string;
  /** GDAL itself could not make or warp the raster: no oracle, nothing to compare. */
  readonly gdalFailed?: boolean;
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
        gdalFailed: true,
        detail: `GDAL itself: ${answer && 'error' in answer ? answer.error : 'no answer'}`,
      });
      continue;
    }
    const store = createMemoryStore('sample');
    store.putBytes('src', new Uint8Array(readFileSync(answer.file)));
    const { header } = await readSourceHeader(store, 'src');
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
      // GDAL keeps CRSs that GeoKeys cannot hold (col_urban, …) in a .aux.xml side file, not in
      // the TIFF: the file alone has no CRS, and geohub says so.
      if (error instanceof UnsupportedCrsError || error instanceof MissingCrsError)
        outcomes.push({ id: c.id, refused: error.message });
      else if (error instanceof EmptyFootprintError && answer.ranges.length === 0)
        // Both covers are empty: a raster wholly beyond Web Mercator's ±85.05° (a polar CRS's
        // area of use). GDAL finds no tile; geohub says so in one line instead of an empty run.
        outcomes.push({ id: c.id, agrees: true, detail: `both empty: ${error.message}` });
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

const percent = (n: number, of: number) => `${((100 * n) / Math.max(1, of)).toFixed(1)} %`;

/** Prints the figures the README quotes; `agree` is a share of the codes drawn, not of those planned. */
function figures(label: string, outcomes: readonly Outcome[]) {
  const planned = outcomes.filter((o) => o.agrees !== undefined);
  const agree = planned.filter((o) => o.agrees).length;
  const zoomed = planned.filter((o) => o.zoomAgrees !== undefined);
  const zoom = zoomed.filter((o) => o.zoomAgrees).length;
  const refused = outcomes.filter((o) => o.refused);
  const gdalFailed = outcomes.filter((o) => o.gdalFailed);
  console.log(
    `${label}: ${outcomes.length} drawn, ${agree} covers equal to GDAL's (${percent(agree, outcomes.length)} of drawn), ` +
      `${planned.length - agree} differ, ${refused.length} refused in one line, ${gdalFailed.length} GDAL could not make; ` +
      `native zoom equal to gdalwarp's for ${zoom} of ${zoomed.length} planned`,
  );
  for (const o of zoomed.filter((x) => !x.zoomAgrees)) console.log(`  ${o.id}: ${o.zoomDetail}`);
  for (const o of outcomes.filter((x) => x.agrees === false || x.refused || x.gdalFailed || x.detail))
    console.log(`  ${o.id}: ${o.detail ?? o.refused}`);
  return { planned, zoomed, agree, zoom, refused, gdalFailed };
}

/**
 * Every outcome is an equal cover, a one-line refusal naming what is unsupported, or a raster
 * GDAL itself could not make: no silently different cover.
 */
function expectAgreeOrRefuse(outcomes: readonly Outcome[]) {
  const wrong = outcomes.filter((o) => o.agrees === false);
  expect(wrong.map((o) => `${o.id}: ${o.detail}`)).toEqual([]);
  for (const o of outcomes.filter((x) => x.refused)) expect(o.refused).toMatch(REFUSAL);
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
  /^epsg-\d+(: EPSG:\d+ \(.+\) cannot be reprojected: (its projection method .+ is not one proj4 implements|the EPSG registry geohub ships \(epsg-index\) has no definition of it)| has no coordinate reference system \(no GeoKeys\): assign one, e\.g\. gdal_translate -a_srs EPSG:xxxx)$/;

/** Every projected CRS of the registry whose proj4 definition flips an axis (+axis=wsu, swu). */
const AXIS_FLIPPED = epsgCodes('CRS-PROJCRS').filter((code) =>
  /\+axis=(?!enu)/.test(epsgEntry(code)?.proj4 ?? ''),
);

describe('tile covers across the EPSG registry, against GDAL', () => {
  it(`a seeded draw of ${SAMPLE} projected EPSG CRSs: ≥ 99 % of them equal covers, every other one refused naming why`, {
    timeout: 600_000,
  }, async ({ signal }) => {
    const cases = await draw('projected', SAMPLE);
    const outcomes = await compare(cases, signal);
    const { zoomed, agree, zoom } = figures('EPSG sample', outcomes);
    expectAgreeOrRefuse(outcomes);
    expect(agree / SAMPLE).toBeGreaterThanOrEqual(0.99);
    // The native zoom rounds log2 of a resolution: one near a half-way point may round either way.
    expect(zoom / zoomed.length).toBeGreaterThanOrEqual(0.97);
  });

  it('every EPSG CRS with a flipped axis order (South African Lo zones, S-JTSK / Krovak): covers equal to GDAL', async ({
    signal,
  }) => {
    // 28 westing/southing Lo zones, 3 southing/westing Krovaks: a new registry must be looked at again.
    expect(AXIS_FLIPPED).toHaveLength(31);
    const cases = AXIS_FLIPPED.flatMap((code) => [
      { id: `epsg-${code}`, srs: `EPSG:${code}`, u: 0.35, v: 0.4, fraction: 0.05 },
      { id: `epsg-${code}-wide`, srs: `EPSG:${code}`, u: 0.6, v: 0.65, fraction: 0.2 },
    ]);
    const outcomes = await compare(cases, signal);
    const { agree } = figures('Flipped axes', outcomes);
    expect(outcomes.filter((o) => !o.agrees).map((o) => `${o.id}: ${o.detail ?? o.refused}`)).toEqual([]);
    expect(agree).toBe(cases.length);
  });

  it('a seeded draw of 60 geographic EPSG CRSs (datums, prime meridians, angular units)', async ({
    signal,
  }) => {
    const outcomes = await compare(await draw('geographic', 60), signal);
    const { agree } = figures('EPSG geographic sample', outcomes);
    expectAgreeOrRefuse(outcomes);
    expect(agree / outcomes.length).toBeGreaterThanOrEqual(0.99);
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
