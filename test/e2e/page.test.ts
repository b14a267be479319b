import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processTable } from '../../lib/process/process-table.js';
import { launchChromium } from '../support/browser.js';
import { startCli } from '../support/cli.js';
import { leftoverProcesses } from '../support/leftovers.js';
import { descendantsOf, poolWorkersOf } from '../support/process-tree.js';
import { slowGeoTiff } from '../support/raster-fixtures.js';
import { type Box, colourFigures, countColour, decodePng } from '../support/screenshot-pixels.js';
import { fileTempDir, tempDir } from '../support/temp-dir.js';
import { tileCorners } from '../support/tile-corners.js';
import { waitUntil } from '../support/wait-until.js';

const RGB = new URL('../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const AUTZEN = new URL('../../examples/pointcloud/autzen_trim.laz', import.meta.url).pathname;
/** The map's land and sea (assets/world-layer.js, style.css): Natural Earth's land over the sea colour. */
const LAND_COLOUR = '#ece7dc';
const SEA_COLOUR = '#d5e4ee';
const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url).pathname;
/** The colours the page gives DONE and CANCELLED sub-tiles (assets/tile-states.js). */
const DONE_COLOUR = '#2b9348';
/** Most sub-tiles the map draws (local/server/page/run-tiles.ts). */
const MAP_CAP = 20_000;

interface Run {
  runId: string;
  status: string;
  counters: { total: number; done: number; cancelled: number; parked: number };
}
interface Feature {
  geometry: { coordinates: number[][][] };
  properties: { z: number; x: number; y: number; state: string };
}

let up: ReturnType<typeof startCli> | undefined;
/** A source slow enough to cancel mid-run, made before any connection is open (it blocks the loop). */
let slow = '';
const slowDir = fileTempDir('geohub-slowtif-');
let base = '';
/** The render cache directory of geohub up: removed when it stops. */
let renderCache = '';
/** geohub up's per-start secret: every request of this file goes as the user who started it. */
let token = '';
const fetch = (url: string, init: RequestInit = {}) =>
  globalThis.fetch(url, {
    ...init,
    headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` },
  });
let browser: Browser | undefined;
let page: Page;
/** Uncaught errors and console errors of the page (a CSP violation is one). */
const pageErrors: string[] = [];
/** Every URL the page requested: all must be on the local server. */
const requested: string[] = [];
/** The runs this file started: their tools must all be gone at the end. */
const runIds: string[] = [];

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  slow = slowGeoTiff(slowDir);
  const started = startCli(['up', '--port', '0', '--json']);
  up = started;
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: started.child.stdout! }).once('line', resolve);
    started.child.once('exit', (code) => reject(new Error(`geohub up exited early (${code})`)));
  });
  const ready = JSON.parse(line) as { url: string; pageUrl: string; tokenFile: string; renderCache: string };
  base = ready.url;
  renderCache = ready.renderCache;
  token = (JSON.parse(readFileSync(ready.tokenFile, 'utf8')) as { token: string }).token;
  browser = await launchChromium();
  // The smallest screen the page is made for.
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // Listening from the first load on: its requests and errors count too.
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
  page.on('request', (r) => requested.push(r.url()));
  // The one-time login URL geohub up prints: the page keeps the secret as a cookie from here on.
  await page.goto(ready.pageUrl);
});

afterAll(async () => {
  // Both, whatever fails: the browser first (it talks to up), then up itself.
  try {
    await browser?.close();
  } finally {
    if (up && up.child.exitCode === null && up.child.signalCode === null) up.child.kill('SIGINT');
    await up?.done;
  }
});

async function api<T>(path: string, init?: RequestInit): Promise<T> {
  // State changes go as JSON, as the page sends them: the API refuses anything else.
  const json =
    init?.method === 'POST'
      ? { headers: { 'content-type': 'application/json' }, body: init.body ?? '{}' }
      : {};
  const r = await fetch(`${base}${path}`, { ...init, ...json });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return (await r.json()) as T;
}

/** The run, or undefined until its split records it. */
async function runOf(runId: string): Promise<Run | undefined> {
  const r = await fetch(`${base}/api/runs/${runId}`);
  if (r.status === 404) return undefined;
  if (!r.ok) throw new Error(`run ${runId}: ${r.status} ${await r.text()}`);
  return (await r.json()) as Run;
}

/** Polls the page (through its locators) until `check` holds. */
async function pageShows(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  expect(await waitUntil(check, timeoutMs, 100)).toBe(true);
}

/** As `geohub submit` does: the file itself is streamed; the server opens no path it is sent. */
async function submit(path: string, zoom?: number): Promise<{ runId: string }> {
  const query = new URLSearchParams({
    name: basename(path),
    ...(zoom === undefined ? {} : { zoom: String(zoom) }),
  });
  const r = await fetch(`${base}/api/uploads?${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: readFileSync(path),
  });
  if (!r.ok) throw new Error(`submit ${path}: ${r.status} ${await r.text()}`);
  // Progress lines while the file is stored, then the outcome (local/server/receive-upload.ts).
  return JSON.parse((await r.text()).trim().split('\n').at(-1)!) as { runId: string };
}

/** A GET with the path sent exactly as written (fetch would normalise `..` away). */
function rawGet(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(base);
    request({ hostname, port, path, method: 'GET', headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}

const rowOf = (runId: string) => page.locator(`#runs tr[data-run-id="${runId}"]`);
const statusIn = async (runId: string) => rowOf(runId).locator('.status').textContent();
const subtiles = (colour?: string) =>
  page.locator(colour ? `#map path.subtile[fill="${colour}"]` : '#map path.subtile');
const legendCount = async (state: string) =>
  Number((await page.locator(`.map-legend .count[data-state="${state}"]`).textContent())?.replace(/,/g, ''));
const outputImages = () => page.locator('#map img.output-tile.loaded');
/** The screen boxes of the sub-tiles drawn on the map (the state overlay's polygons). */
async function subtileBoxes(): Promise<Box[]> {
  const boxes = await Promise.all((await subtiles().all()).map((p) => p.boundingBox()));
  return boxes.filter((b): b is Box => b !== null);
}
/** Waits for the run's output and the world outline to be drawn, then screenshots the page. */
async function screenshotWithOutput(tiles: number, file: string) {
  await pageShows(async () => (await page.locator('#map').getAttribute('data-world')) === 'loaded', 60_000);
  await pageShows(async () => (await outputImages().count()) === tiles, 60_000);
  // The story has said how the output is drawn (the legend's line).
  await pageShows(async () => Boolean(await page.locator('#output-style').textContent()), 30_000);
  // The images fade in (style.css): let the transition end.
  await page.waitForTimeout(500);
  await page.screenshot({ path: `${ARTIFACTS}${file}` });
  return decodePng(await page.screenshot(), tempDir('geohub-shot-'));
}
const gdalwarpsOf = (runId: string) =>
  processTable().filter(
    (p) => p.state !== 'Z' && /^(gdalwarp|gdal-metatile)$/.test(p.command) && p.args.includes(runId),
  );

describe('the run-control page of geohub up', () => {
  it('serves the page and Leaflet from a fixed allow-list under a strict CSP', async () => {
    const index = await fetch(`${base}/`);
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
      '/vendor/leaflet/leaflet.js': /^text\/javascript/,
      '/vendor/leaflet/leaflet.css': /^text\/css/,
      '/vendor/leaflet/images/layers.png': /^image\/png$/,
    };
    for (const [path, type] of Object.entries(types)) {
      const r = await fetch(`${base}${path}`);
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
      '/create-page.ts',
      '/static-assets.ts',
      '//etc/passwd',
    ]) {
      expect(await rawGet(path), path).toBe(404);
    }
    // A non-JSON post is refused before routing (a web page could forge it).
    expect((await fetch(`${base}/`, { method: 'POST' })).status).toBe(403);
  });

  it('lists a finished run and maps every sub-tile on its footprint, DONE; saves a screenshot', async () => {
    const { runId } = await submit(RGB);
    runIds.push(runId);
    expect(await waitUntil(async () => (await runOf(runId))?.status === 'SUCCEEDED', 120_000, 500)).toBe(
      true,
    );
    const run = (await runOf(runId))!;
    expect(run.counters.total).toBeGreaterThan(0);

    await page.goto(`${base}/#run=${runId}`);
    await pageShows(
      async () => (await rowOf(runId).count()) === 1 && (await statusIn(runId)) === 'SUCCEEDED',
    );
    const cells = await rowOf(runId).locator('td').allTextContents();
    expect(cells[1]).toBe('RGB.byte.tif');
    expect(cells.slice(3, 8)).toEqual([run.counters.total, 0, 0, 0, run.counters.total].map(String));

    // One polygon per sub-tile, all coloured DONE.
    await pageShows(async () => (await subtiles().count()) === run.counters.total);
    await pageShows(async () => (await subtiles(DONE_COLOUR).count()) === run.counters.total);
    expect(await legendCount('DONE')).toBe(run.counters.total);
    expect(await legendCount('QUEUED')).toBe(0);

    // The geometry behind them is the tiles' real footprint in lon/lat.
    const collection = await api<{ total: number; truncated: boolean; features: Feature[] }>(
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
    expect(await page.locator('#console-link').isHidden()).toBe(true);
    // A string, not a function: the test runner rewrites import() in the test's own code.
    const consoleUrl = (arn: string) =>
      page.evaluate<string | undefined>(
        `import('/console-link.js').then((m) => m.stepFunctionsConsoleUrl(${JSON.stringify(arn)}))`,
      );
    const deployed = 'arn:aws:states:eu-west-1:123456789012:execution:geohub-coordinator:r-abc';
    expect(await consoleUrl(deployed)).toBe(
      `https://eu-west-1.console.aws.amazon.com/states/home?region=eu-west-1#/v2/executions/details/${deployed}`,
    );
    expect(
      await consoleUrl('arn:aws:states:us-east-1:000000000000:execution:geohub-local:r-abc'),
    ).toBeUndefined();

    await page.locator('#map').screenshot({ path: `${ARTIFACTS}page-finished-run-map.png` });
    await page.screenshot({ path: `${ARTIFACTS}page-finished-run.png`, fullPage: true });
  });

  it('draws the finished raster run imagery inside its footprint, over the coastlines of the Bahamas', async () => {
    const runId = runIds[0]!;
    const run = (await runOf(runId))!;
    await page.goto(`${base}/#run=${runId}`);
    await pageShows(async () => (await subtiles(DONE_COLOUR).count()) === run.counters.total);
    const pixels = await screenshotWithOutput(run.counters.total, 'page-raster-output.png');
    expect(await page.locator('#output-style').textContent()).toBe('output: the image as it is');

    // Inside the sub-tiles: imagery, many colours, where a state overlay would be one flat colour.
    const figures = (await subtileBoxes()).map((b) => colourFigures(pixels, b));
    expect(figures).toHaveLength(run.counters.total);
    const imagery = figures.filter((f) => f.colours > 1000 && f.top3Share < 0.3);
    expect(imagery.length).toBeGreaterThanOrEqual(4);
    // Around it, in the run's outline: the sea, and the islands of the Bahamas drawn from
    // Natural Earth (nothing else is land in 79.5°W–75.9°W, 23.2°N–25.8°N).
    const outline = (await page.locator('#map path.run-outline').boundingBox())!;
    expect(countColour(pixels, outline, SEA_COLOUR)).toBeGreaterThan(5_000);
    expect(countColour(pixels, outline, LAND_COLOUR)).toBeGreaterThan(100);

    // The layers toggle: without the output, a DONE sub-tile is its state colour again.
    await page.locator('#toggle-output').uncheck();
    await pageShows(async () => (await outputImages().count()) === 0);
    const flat = decodePng(await page.screenshot(), tempDir('geohub-shot-'));
    const flatFigures = (await subtileBoxes()).map((b) => colourFigures(flat, b));
    // A flat fill, under which only the coastlines and the graticule show through.
    for (const f of flatFigures) expect(f.top3Share).toBeGreaterThan(0.7);
    await page.locator('#toggle-output').check();
    await pageShows(async () => (await outputImages().count()) === run.counters.total);
    // Sub-tile states can be hidden too.
    await page.locator('#toggle-states').uncheck();
    await pageShows(async () => (await subtiles().count()) === 0);
    await page.locator('#toggle-states').check();
    await pageShows(async () => (await subtiles().count()) === run.counters.total);
  });

  it('tells the run story: sub-tiles done over time, redone work, downloads of the mosaic and STAC', async () => {
    const runId = runIds[0]!;
    const run = (await runOf(runId))!;
    await page.goto(`${base}/#run=${runId}`);
    await pageShows(
      async () =>
        (await page.locator('#done-chart svg').getAttribute('data-done')) === String(run.counters.total),
    );
    const figures = await page.locator('#story-figures').textContent();
    expect(figures).toContain('Interruptions0');
    expect(figures).toContain('Redone0 sub-tiles (0 extra attempts)');
    const links = page.locator('#downloads a');
    // STAC items are written in parts linked from the collection: no single items.json to offer.
    expect(await links.allTextContents()).toEqual(['Mosaic (VRT)', 'STAC collection', 'Summary']);
    const stacHref = await page.locator('#downloads a', { hasText: 'STAC collection' }).getAttribute('href');
    const stac = await fetch(`${base}${stacHref}`);
    expect(stac.headers.get('content-disposition')).toContain('attachment');
    expect(((await stac.json()) as { type: string }).type).toBe('Collection');
    const mosaic = await fetch(`${base}${await links.first().getAttribute('href')}`);
    expect(await mosaic.text()).toMatch(/^<VRTDataset /);
    await page.screenshot({ path: `${ARTIFACTS}page-run-story.png` });

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
    const shown = await page.evaluate<string>(
      `import('/run-story.js').then((m) => {
        const box = document.createElement('div');
        const detail = ${JSON.stringify(detail)};
        m.createRunStory(box).render(detail, { runId: detail.runId, progress: [[0, 0]], redone: { tiles: 6, attempts: 3 }, interruptions: 2, outputs: {} }, detail);
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
    const { features } = await api<{ features: Feature[] }>(`/api/runs/${runId}/tiles.geojson`);
    const { z, x, y } = features[0]!.properties;
    const png = await fetch(`${base}/api/runs/${runId}/render/${z}/${x}/${y}.png`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect((await fetch(`${base}/api/runs/${runId}/render/${z}/0/0.png`)).status).toBe(404);
    expect((await fetch(`${base}/api/runs/${runId}/render/3/9/0.png`)).status).toBe(400);
    expect((await fetch(`${base}/api/runs/${runId}/outputs/secret.txt`)).status).toBe(404);
  });

  it('shows a point-cloud run as a hillshade', async () => {
    const { runId } = await submit(AUTZEN);
    runIds.push(runId);
    const ended = async () =>
      !['SPLITTING', 'RUNNING', 'DRAINING'].includes((await runOf(runId))?.status ?? 'SPLITTING');
    expect(await waitUntil(ended, 240_000, 500)).toBe(true);
    const { status, reason } = (await runOf(runId)) as Run & { reason?: string };
    expect({ status, reason }).toEqual({ status: 'SUCCEEDED', reason: undefined });
    const run = (await runOf(runId))!;
    await page.goto(`${base}/#run=${runId}`);
    await pageShows(async () => (await subtiles(DONE_COLOUR).count()) === run.counters.total);
    const pixels = await screenshotWithOutput(run.counters.total, 'page-pointcloud-hillshade.png');
    expect(await page.locator('#output-style').textContent()).toBe('output: hillshade of the terrain model');
    // Shaded relief: most of a sub-tile with ground in it is grey, in many levels.
    const figures = (await subtileBoxes()).map((b) => colourFigures(pixels, b));
    const shaded = figures.filter((f) => f.greyShare > 0.5 && f.greyLevels > 40);
    expect(shaded.length).toBeGreaterThan(0);
  });

  it('cancel on a running run ends it CANCELLED, live, and nothing of it keeps running', async () => {
    const { runId } = await submit(slow, 13);
    runIds.push(runId);
    await page.goto(`${base}/`);
    await rowOf(runId).click({ timeout: 30_000 });
    expect(await waitUntil(() => gdalwarpsOf(runId).length > 0, 90_000, 100)).toBe(true);
    // Live: the page shows the claimed sub-tile without a reload.
    await pageShows(async () => (await legendCount('CLAIMED')) > 0);
    const run = (await runOf(runId))!;
    expect(run.status).toBe('RUNNING');
    // The runs table and the map poll apart: each shows the run as the API has it, within its poll.
    await pageShows(async () => (await subtiles().count()) === run.counters.total);
    await pageShows(async () => (await statusIn(runId)) === 'RUNNING');

    page.once('dialog', (d) => void d.accept());
    const cancel = page.locator('#cancel-run');
    expect(await cancel.isEnabled()).toBe(true);
    await cancel.click();
    await pageShows(async () => (await statusIn(runId)) === 'CANCELLED');
    expect((await runOf(runId))?.status).toBe('CANCELLED');
    // Nothing of the run keeps running while up still runs: no tool, no claim, no partial file.
    expect(await waitUntil(() => gdalwarpsOf(runId).length === 0, 10_000, 100)).toBe(true);
    // The claim release and the .part removal follow the tool's death (cleanup runs in order).
    let verify: { claimsHeld: number; parts: string[] } | undefined;
    await waitUntil(
      async () => {
        verify = await api<{ claimsHeld: number; parts: string[] }>(`/api/runs/${runId}/verify`);
        return verify.claimsHeld === 0 && verify.parts.length === 0;
      },
      10_000,
      200,
    );
    expect(verify).toMatchObject({ claimsHeld: 0, parts: [] });
    await pageShows(async () => (await legendCount('CLAIMED')) === 0);
    expect(await cancel.isDisabled()).toBe(true);
    expect(await page.locator('#redrive-run').isEnabled()).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}page-cancelled-run.png`, fullPage: true });
  });

  it('bounds the map of a large run: the first 20,000 sub-tiles on a canvas, the whole outline, a note', async () => {
    const { runId } = await submit(RGB, 15);
    runIds.push(runId);
    expect(await waitUntil(async () => ((await runOf(runId))?.counters.total ?? 0) > 0, 60_000, 500)).toBe(
      true,
    );
    const run = (await runOf(runId))!;
    expect(run.counters.total).toBeGreaterThan(MAP_CAP);

    const polled = await api<{ shown: number; total: number; truncated: boolean; states: string }>(
      `/api/runs/${runId}/tile-states`,
    );
    expect(polled).toMatchObject({ shown: MAP_CAP, total: run.counters.total, truncated: true });
    expect(polled.states).toHaveLength(MAP_CAP);
    const collection = await api<{ bbox: number[]; features: Feature[] }>(`/api/runs/${runId}/tiles.geojson`);
    expect(collection.features).toHaveLength(MAP_CAP);
    // The outline is the whole run's: it holds every drawn tile and reaches beyond them (south).
    const [west, south, east, north] = collection.bbox as [number, number, number, number];
    const lats = collection.features.flatMap((f) => f.geometry.coordinates[0]!.map((p) => p[1]!));
    const lons = collection.features.flatMap((f) => f.geometry.coordinates[0]!.map((p) => p[0]!));
    expect(Math.min(...lons)).toBeGreaterThanOrEqual(west);
    expect(Math.max(...lons)).toBeLessThanOrEqual(east);
    expect(Math.max(...lats)).toBeLessThanOrEqual(north);
    expect(Math.min(...lats)).toBeGreaterThan(south);

    await page.goto(`${base}/#run=${runId}`);
    const map = page.locator('#map');
    await pageShows(async () => (await map.getAttribute('data-features')) === String(MAP_CAP), 60_000);
    expect(await map.getAttribute('data-renderer')).toBe('canvas');
    // Fitted to the whole run, its tiles are too many to draw as images: the page says so
    // instead of asking for thousands of renders (and walking millions of grid positions).
    await pageShows(async () =>
      /^zoom in to see the output \([\d,]+ tiles in view\)$/.test(
        (await page.locator('#output-note').textContent()) ?? '',
      ),
    );
    expect(await page.locator('#map-note').textContent()).toBe(
      `showing the first 20,000 of ${run.counters.total.toLocaleString('en')} sub-tiles`,
    );
    await api(`/api/runs/${runId}/cancel`, { method: 'POST' });
    await pageShows(async () => (await statusIn(runId)) === 'CANCELLED');
  });

  it('loads nothing from anywhere but the local server, and logs no error', () => {
    // From the first load on: the one-time login URL is the first request seen.
    expect(requested[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    expect(requested.filter((u) => !u.startsWith(`${base}/`) && !u.startsWith('data:'))).toEqual([]);
    expect(new URL(base).hostname).toBe('127.0.0.1');
    // The world outline and the rendered tiles were among them.
    expect(requested).toContain(`${base}/vendor/world-atlas/countries-10m.json`);
    expect(requested.some((u) => /\/render\/\d+\/\d+\/\d+\.png/.test(u))).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it('Ctrl-C stops geohub up and everything it started', async () => {
    await browser?.close();
    const ours = descendantsOf(up!.child.pid!);
    expect(poolWorkersOf(up!.child.pid!)).toHaveLength(2);
    up!.child.kill('SIGINT');
    const r = await up!.done;
    expect(r.code).toBe(130); // stopped by Ctrl-C, as a shell reports it
    // Its stack, workers and tools are gone. Once up has exited they would be reparented, so
    // they are recognised by the pids taken before the stop, and tools by our runs' ids.
    const left = leftoverProcesses().filter((line) => ours.has(Number(line.split(' ')[0])));
    expect(left).toEqual([]);
    expect(poolWorkersOf(up!.child.pid!)).toEqual([]);
    expect(runIds.flatMap(gdalwarpsOf)).toEqual([]);
    // The render cache was its own directory, and went with it.
    expect(renderCache).toMatch(/geohub-render-/);
    expect(existsSync(renderCache)).toBe(false);
  });
});
