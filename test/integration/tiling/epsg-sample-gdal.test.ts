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
import { FULL_DISKS, PROJ_STRINGS } from '../../support/crs-cases.js';
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
  /^epsg-\d+(: EPSG:\d+ \(.+\) cannot be reprojected: (its projection method .+ is not one proj4 implements|PROJ [\d.]+ gives no proj4 definition of it)| has no coordinate reference system \(no GeoKeys\): assign one, e\.g\. gdal_translate -a_srs EPSG:xxxx)$/;

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

  it('every EPSG CRS with a flipped axis order (South African Lo zones, Krovaks, Austrian Ferro grids): covers equal to GDAL', async ({
    signal,
  }) => {
    // 28 westing/southing Lo zones, 3 southing/westing Krovaks, 2 southing/westing Austrian Ferro
    // grids (Gusterberg, St. Stephen): a new registry must be looked at again.
    expect(AXIS_FLIPPED).toHaveLength(33);
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
