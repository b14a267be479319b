import { describe, expect, it } from 'vitest';
import { ARTIFACTS, DONE_COLOUR, type TileFeature, usePageSession } from '../support/page-session.js';
import { colourFigures, countColour, decodePng } from '../support/screenshot-pixels.js';
import { tempDir } from '../support/temp-dir.js';
import { tileCorners } from '../support/tile-corners.js';
import { waitUntil } from '../support/wait-until.js';

const RGB = new URL('../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
/** The map's land and sea (assets/world-layer.js, map.css): Natural Earth's land over the sea colour. */
const LAND_COLOUR = '#ece7dc';
const SEA_COLOUR = '#d5e4ee';

const s = usePageSession();

describe('the run-control page of geohub up: a finished raster run', () => {
  it('serves the page and Leaflet from a fixed allow-list under a strict CSP', async () => {
    const index = await s.fetch(`${s.base}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = index.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("img-src 'self' data:");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');

    const types = {
      '/app.js': /^text\/javascript/,
      '/style.css': /^text\/css/,
      '/map.css': /^text\/css/,
      '/vendor/leaflet/leaflet.js': /^text\/javascript/,
      '/vendor/leaflet/leaflet.css': /^text\/css/,
      '/vendor/leaflet/images/layers.png': /^image\/png$/,
    };
    for (const [path, type] of Object.entries(types)) {
      const r = await s.fetch(`${s.base}${path}`);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('content-type'), path).toMatch(type);
      expect(r.headers.get('content-security-policy'), path).toBe(csp);
    }
    // Only the allow-list: no traversal, no other file of Leaflet's package, no source file.
    for (const path of [
      '/../package.json',
      '/%2e%2e/package.json',
      '/vendor/leaflet/../../package.json',
      '/vendor/leaflet/%2e%2e/%2e%2e/package.json',
      '/vendor/leaflet/leaflet-src.js',
      '/vendor/leaflet/package.json',
      '/create-s.page.ts',
      '/static-assets.ts',
      '//etc/passwd',
    ]) {
      expect(await s.rawGet(path), path).toBe(404);
    }
    // A non-JSON post is refused before routing (a web page could forge it).
    expect((await s.fetch(`${s.base}/`, { method: 'POST' })).status).toBe(403);
  });

  it('lists a finished run and maps every sub-tile on its footprint, DONE; saves a screenshot', async () => {
    const { runId } = await s.submit(RGB);
    expect(await waitUntil(async () => (await s.runOf(runId))?.status === 'SUCCEEDED', 120_000, 500)).toBe(
      true,
    );
    const run = (await s.runOf(runId))!;
    expect(run.counters.total).toBeGreaterThan(0);

    await s.page.goto(`${s.base}/#run=${runId}`);
    await s.pageShows(
      async () => (await s.rowOf(runId).count()) === 1 && (await s.statusIn(runId)) === 'SUCCEEDED',
    );
    const cells = await s.rowOf(runId).locator('td').allTextContents();
    expect(cells[1]).toBe('RGB.byte.tif');
    expect(cells.slice(3, 8)).toEqual([run.counters.total, 0, 0, 0, run.counters.total].map(String));

    // One polygon per sub-tile, all coloured DONE.
    await s.pageShows(async () => (await s.subtiles().count()) === run.counters.total);
    await s.pageShows(async () => (await s.subtiles(DONE_COLOUR).count()) === run.counters.total);
    expect(await s.legendCount('DONE')).toBe(run.counters.total);
    expect(await s.legendCount('QUEUED')).toBe(0);

    // The geometry behind them is the tiles' real footprint in lon/lat.
    const collection = await s.api<{ total: number; truncated: boolean; features: TileFeature[] }>(
      `/api/runs/${runId}/tiles.geojson`,
    );
    expect(collection).toMatchObject({ total: run.counters.total, truncated: false });
    expect(collection.features).toHaveLength(run.counters.total);
    for (const f of collection.features) {
      const { z, x, y } = f.properties;
      const c = tileCorners(z, x, y);
      const ring = f.geometry.coordinates[0]!;
      expect(ring).toHaveLength(5);
      const lons = ring.map((p) => p[0]!);
      const lats = ring.map((p) => p[1]!);
      expect(Math.min(...lons)).toBeCloseTo(c.west, 6);
      expect(Math.max(...lons)).toBeCloseTo(c.east, 6);
      expect(Math.min(...lats)).toBeCloseTo(c.south, 6);
      expect(Math.max(...lats)).toBeCloseTo(c.north, 6);
      expect(f.properties.state).toBe('DONE');
    }

    // A local execution has no console page; a deployed one does, in the console's URL format.
    expect(await s.page.locator('#console-link').isHidden()).toBe(true);
    // A string, not a function: the test runner rewrites import() in the test's own code.
    const consoleUrl = (arn: string) =>
      s.page.evaluate<string | undefined>(
        `import('/console-link.js').then((m) => m.stepFunctionsConsoleUrl(${JSON.stringify(arn)}))`,
      );
    const deployed = 'arn:aws:states:eu-west-1:123456789012:execution:geohub-coordinator:r-abc';
    expect(await consoleUrl(deployed)).toBe(
      `https://eu-west-1.console.aws.amazon.com/states/home?region=eu-west-1#/v2/executions/details/${deployed}`,
    );
    expect(
      await consoleUrl('arn:aws:states:us-east-1:000000000000:execution:geohub-local:r-abc'),
    ).toBeUndefined();

    await s.page.locator('#map').screenshot({ path: `${ARTIFACTS}page-finished-run-map.png` });
    await s.page.screenshot({ path: `${ARTIFACTS}page-finished-run.png`, fullPage: true });
  });

  it('draws the finished raster run imagery inside its footprint, over the coastlines of the Bahamas', async () => {
    const runId = s.runIds[0]!;
    const run = (await s.runOf(runId))!;
    await s.page.goto(`${s.base}/#run=${runId}`);
    await s.pageShows(async () => (await s.subtiles(DONE_COLOUR).count()) === run.counters.total);
    const pixels = await s.screenshotWithOutput(run.counters.total, 'page-raster-output.png');
    expect(await s.page.locator('#output-style').textContent()).toBe('output: the image as it is');

    // Inside the sub-tiles: imagery, many colours, where a state overlay would be one flat colour.
    const figures = (await s.subtileBoxes()).map((b) => colourFigures(pixels, b));
    expect(figures).toHaveLength(run.counters.total);
    const imagery = figures.filter((f) => f.colours > 1000 && f.top3Share < 0.3);
    expect(imagery.length).toBeGreaterThanOrEqual(4);
    // Around it, in the run's outline: the sea, and the islands of the Bahamas drawn from
    // Natural Earth (nothing else is land in 79.5°W–75.9°W, 23.2°N–25.8°N).
    const outline = (await s.page.locator('#map path.run-outline').boundingBox())!;
    expect(countColour(pixels, outline, SEA_COLOUR)).toBeGreaterThan(5_000);
    expect(countColour(pixels, outline, LAND_COLOUR)).toBeGreaterThan(100);

    // The layers toggle: without the output, a DONE sub-tile is its state colour again.
    await s.page.locator('#toggle-output').uncheck();
    await s.pageShows(async () => (await s.outputImages().count()) === 0);
    const flat = decodePng(await s.page.screenshot(), tempDir('geohub-shot-'));
    const flatFigures = (await s.subtileBoxes()).map((b) => colourFigures(flat, b));
    // A flat fill, under which only the coastlines and the graticule show through.
    for (const f of flatFigures) expect(f.top3Share).toBeGreaterThan(0.7);
    await s.page.locator('#toggle-output').check();
    await s.pageShows(async () => (await s.outputImages().count()) === run.counters.total);
    // Sub-tile states can be hidden too.
    await s.page.locator('#toggle-states').uncheck();
    await s.pageShows(async () => (await s.subtiles().count()) === 0);
    await s.page.locator('#toggle-states').check();
    await s.pageShows(async () => (await s.subtiles().count()) === run.counters.total);
  });

  it('tells the run story: sub-tiles done over time, redone work, downloads of the mosaic and STAC', async () => {
    const runId = s.runIds[0]!;
    const run = (await s.runOf(runId))!;
    await s.page.goto(`${s.base}/#run=${runId}`);
    await s.pageShows(
      async () =>
        (await s.page.locator('#done-chart svg').getAttribute('data-done')) === String(run.counters.total),
    );
    const figures = await s.page.locator('#story-figures').textContent();
    expect(figures).toContain('Interruptions0');
    expect(figures).toContain('Redone0 sub-tiles (0 extra attempts)');
    const links = s.page.locator('#downloads a');
    // STAC items are written in parts linked from the collection: no single items.json to offer.
    expect(await links.allTextContents()).toEqual(['Mosaic (VRT)', 'STAC collection', 'Summary']);
    const stacHref = await s.page
      .locator('#downloads a', { hasText: 'STAC collection' })
      .getAttribute('href');
    const stac = await s.fetch(`${s.base}${stacHref}`);
    expect(stac.headers.get('content-disposition')).toContain('attachment');
    expect(((await stac.json()) as { type: string }).type).toBe('Collection');
    const mosaic = await s.fetch(`${s.base}${await links.first().getAttribute('href')}`);
    expect(await mosaic.text()).toMatch(/^<VRTDataset /);
    await s.page.screenshot({ path: `${ARTIFACTS}page-run-story.png` });

    // The chain of executions, the capacity and a story with redone work, in the shapes the run
    // views report them, are shown as given (a string, not a function: the test runner rewrites import() in the test's code).
    const detail = {
      ...run,
      executions: [
        {
          executionArn: 'arn:aws:states:us-east-1:0:execution:geohub:r-1',
          reason: 'upload',
          status: 'HANDED_OVER',
        },
        {
          executionArn: 'arn:aws:states:us-east-1:0:execution:geohub:r-1-2',
          reason: 'handover',
          status: 'RUNNING',
        },
      ],
      capacity: {
        mode: 'on-demand',
        workers: { spot: 1, onDemand: 2 },
        rate: 0.25,
        breakEven: 0.2,
        cost: { total: 0.0123, onDemandShare: 0.5 },
      },
    };
    const shown = await s.page.evaluate<string>(
      `import('/run-story.js').then((m) => {
        const box = document.createElement('div');
        const detail = ${JSON.stringify(detail)};
        m.createRunStory(box).render(detail, { runId: detail.runId, progress: [[0, 0]], redone: { tiles: 6, attempts: 3 }, interruptions: 2, outputs: [] }, detail);
        return [...box.querySelectorAll('#executions li, #story-figures dd')].map((n) => n.textContent).join(' | ');
      })`,
    );
    expect(shown).toContain('1 spot + 2 on-demand workers, new ones on on-demand');
    expect(shown).toContain('25.0 % (break-even 20.0 %)');
    expect(shown).toContain('$0.0123, 50.0 % on-demand');
    expect(shown).toContain('r-1 upload · HANDED_OVER');
    expect(shown).toContain('r-1-2 handover · RUNNING');
    // Redone work and interruptions as the story reports them (run-story.test.ts builds such a story).
    expect(shown).toMatch(/^2 \| 6 sub-tiles \(3 extra attempts\) \| /); // Interruptions, then Redone

    // The render route answers PNGs for done sub-tiles only, and refuses what is not a tile.
    const { features } = await s.api<{ features: TileFeature[] }>(`/api/runs/${runId}/tiles.geojson`);
    const { z, x, y } = features[0]!.properties;
    const png = await s.fetch(`${s.base}/api/runs/${runId}/render/${z}/${x}/${y}.png`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect((await s.fetch(`${s.base}/api/runs/${runId}/render/${z}/0/0.png`)).status).toBe(404);
    expect((await s.fetch(`${s.base}/api/runs/${runId}/render/3/9/0.png`)).status).toBe(400);
    expect((await s.fetch(`${s.base}/api/runs/${runId}/outputs/secret.txt`)).status).toBe(404);
  });

  it('loads nothing from anywhere but the local server, and logs no error', () => {
    s.expectLocalOnly();
    // The world outline and the rendered tiles were among its requests.
    expect(s.requested).toContain(`${s.base}/vendor/world-atlas/countries-10m.json`);
    expect(s.requested.some((u) => /\/render\/\d+\/\d+\/\d+\.png/.test(u))).toBe(true);
  });
});
