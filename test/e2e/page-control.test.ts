import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { leftoverProcesses } from '../support/leftovers.js';
import { ARTIFACTS, DONE_COLOUR, type TileFeature, usePageSession } from '../support/page-session.js';
import { descendantsOf, poolWorkersOf } from '../support/process-tree.js';
import { slowGeoTiff } from '../support/raster-fixtures.js';
import { colourFigures } from '../support/screenshot-pixels.js';
import { fileTempDir } from '../support/temp-dir.js';
import { waitUntil } from '../support/wait-until.js';

const RGB = new URL('../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const AUTZEN = new URL('../../examples/pointcloud/autzen_trim.laz', import.meta.url).pathname;
/** Most sub-tiles the map draws (local/server/page/run-tiles.ts). */
const MAP_CAP = 20_000;

/**
 * A source slow enough to cancel mid-run, made before any connection is open (it blocks the loop).
 * 40×: the page's polls between the tool's start and the click take seconds, and the 20× source's
 * one tile ended in 2.2 s once the engine was warm — cancelling a finished run (CI, session 13).
 */
let slow = '';
const slowDir = fileTempDir('geohub-slowtif-');
beforeAll(() => {
  slow = slowGeoTiff(slowDir, 40);
});
const s = usePageSession();

describe('the run-control page of geohub up: a point cloud, a cancel, a large run, Ctrl-C', () => {
  it('shows a point-cloud run as a hillshade', async () => {
    const { runId } = await s.submit(AUTZEN);
    const ended = async () =>
      !['SPLITTING', 'RUNNING', 'DRAINING'].includes((await s.runOf(runId))?.status ?? 'SPLITTING');
    expect(await waitUntil(ended, 240_000, 500)).toBe(true);
    const run = (await s.runOf(runId))!;
    expect({ status: run.status, reason: run.reason }).toEqual({ status: 'SUCCEEDED', reason: undefined });
    await s.page.goto(`${s.base}/#run=${runId}`);
    await s.pageShows(async () => (await s.subtiles(DONE_COLOUR).count()) === run.counters.total);
    const pixels = await s.screenshotWithOutput(run.counters.total, 'page-pointcloud-hillshade.png');
    expect(await s.page.locator('#output-style').textContent()).toBe(
      'output: hillshade of the terrain model',
    );
    // Shaded relief: most of a sub-tile with ground in it is grey, in many levels.
    const figures = (await s.subtileBoxes()).map((b) => colourFigures(pixels, b));
    const shaded = figures.filter((f) => f.greyShare > 0.5 && f.greyLevels > 40);
    expect(shaded.length).toBeGreaterThan(0);
  });

  it('cancel on a running run ends it CANCELLED, live, and nothing of it keeps running', async () => {
    // The page first, then the run: it shows up within a poll, while its tool is still at work. At
    // zoom 12 the source is one sub-tile that reads all of its 1.7 G pixels in one tool (at zoom
    // 13, two metatiles in parallel once ended before the page had loaded: CI, session 10).
    await s.page.goto(`${s.base}/`);
    const { runId } = await s.submit(slow, 12);
    await s.rowOf(runId).click({ timeout: 30_000 });
    expect(await waitUntil(() => s.gdalAtWork().length > 0, 90_000, 100)).toBe(true);
    // Live: the page shows the claimed sub-tile without a reload.
    await s.pageShows(async () => (await s.legendCount('CLAIMED')) > 0);
    const run = (await s.runOf(runId))!;
    expect(run.status).toBe('RUNNING');
    // The runs table and the map poll apart: each shows the run as the API has it, within its poll.
    await s.pageShows(async () => (await s.subtiles().count()) === run.counters.total);
    await s.pageShows(async () => (await s.statusIn(runId)) === 'RUNNING');

    s.page.once('dialog', (d) => void d.accept());
    const cancel = s.page.locator('#cancel-run');
    expect(await cancel.isEnabled()).toBe(true);
    await cancel.click();
    await s.pageShows(async () => (await s.statusIn(runId)) === 'CANCELLED');
    expect((await s.runOf(runId))?.status).toBe('CANCELLED');
    // Nothing of the run keeps running while up still runs: no tool, no claim, no partial file.
    expect(await waitUntil(() => s.gdalAtWork().length === 0, 10_000, 100)).toBe(true);
    // The claim release and the .part removal follow the tool's death (cleanup runs in order).
    let verify: { claimsHeld: number; parts: string[] } | undefined;
    await waitUntil(
      async () => {
        verify = await s.api<{ claimsHeld: number; parts: string[] }>(`/api/runs/${runId}/verify`);
        return verify.claimsHeld === 0 && verify.parts.length === 0;
      },
      10_000,
      200,
    );
    expect(verify).toMatchObject({ claimsHeld: 0, parts: [] });
    await s.pageShows(async () => (await s.legendCount('CLAIMED')) === 0);
    // The buttons follow the run's status at the page's next poll (on a loaded machine, not at once).
    await s.pageShows(async () => await cancel.isDisabled());
    await s.pageShows(async () => await s.page.locator('#redrive-run').isEnabled());
    await s.page.screenshot({ path: `${ARTIFACTS}page-cancelled-run.png`, fullPage: true });
  });

  it('bounds the map of a large run: the first 20,000 sub-tiles on a canvas, the whole outline, a note', async () => {
    const { runId } = await s.submit(RGB, 15);
    expect(await waitUntil(async () => ((await s.runOf(runId))?.counters.total ?? 0) > 0, 60_000, 500)).toBe(
      true,
    );
    const run = (await s.runOf(runId))!;
    expect(run.counters.total).toBeGreaterThan(MAP_CAP);

    const polled = await s.api<{ shown: number; total: number; truncated: boolean; states: string }>(
      `/api/runs/${runId}/tile-states`,
    );
    expect(polled).toMatchObject({ shown: MAP_CAP, total: run.counters.total, truncated: true });
    expect(polled.states).toHaveLength(MAP_CAP);
    const collection = await s.api<{ bbox: number[]; features: TileFeature[] }>(
      `/api/runs/${runId}/tiles.geojson`,
    );
    expect(collection.features).toHaveLength(MAP_CAP);
    // The outline is the whole run's: it holds every drawn tile and reaches beyond them (south).
    const [west, south, east, north] = collection.bbox as [number, number, number, number];
    const lats = collection.features.flatMap((f) => f.geometry.coordinates[0]!.map((p) => p[1]!));
    const lons = collection.features.flatMap((f) => f.geometry.coordinates[0]!.map((p) => p[0]!));
    expect(Math.min(...lons)).toBeGreaterThanOrEqual(west);
    expect(Math.max(...lons)).toBeLessThanOrEqual(east);
    expect(Math.max(...lats)).toBeLessThanOrEqual(north);
    expect(Math.min(...lats)).toBeGreaterThan(south);

    await s.page.goto(`${s.base}/#run=${runId}`);
    const map = s.page.locator('#map');
    await s.pageShows(async () => (await map.getAttribute('data-features')) === String(MAP_CAP), 60_000);
    expect(await map.getAttribute('data-renderer')).toBe('canvas');
    // Fitted to the whole run, its tiles are too many to draw as images: the page says so
    // instead of asking for thousands of renders (and walking millions of grid positions).
    await s.pageShows(async () =>
      /^zoom in to see the output \([\d,]+ tiles in view\)$/.test(
        (await s.page.locator('#output-note').textContent()) ?? '',
      ),
    );
    expect(await s.page.locator('#map-note').textContent()).toBe(
      `showing the first 20,000 of ${run.counters.total.toLocaleString('en')} sub-tiles`,
    );
    await s.api(`/api/runs/${runId}/cancel`, { method: 'POST' });
    await s.pageShows(async () => (await s.statusIn(runId)) === 'CANCELLED');
  });

  it('loads nothing from anywhere but the local server, and logs no error', () => {
    s.expectLocalOnly();
  });

  it('Ctrl-C stops geohub up and everything it started', async () => {
    await s.browser?.close();
    const { child, renderCache } = s.up;
    // Taken while up lives (a dead process has no descendants to find): its stack, workers and
    // tools. The check below can fail only if this holds what it judges: the workers and the
    // stack's processes are in it now.
    const workers = poolWorkersOf(child.pid!);
    expect(workers).toHaveLength(2);
    const ours = descendantsOf(child.pid!);
    for (const pid of workers) expect(ours.has(pid)).toBe(true);
    const before = leftoverProcesses().filter((line) => ours.has(Number(line.split(' ')[0])));
    expect(before.some((line) => /DynamoDBLocal|emulator-main/.test(line))).toBe(true);
    child.kill('SIGINT');
    const r = await s.up.done;
    expect(r.code).toBe(130); // stopped by Ctrl-C, as a shell reports it
    // Its stack, workers and tools are gone. Once up has exited they would be reparented, so
    // they are recognised by the pids taken before the stop, and tools by the session's mark.
    const left = leftoverProcesses().filter((line) => ours.has(Number(line.split(' ')[0])));
    expect(left).toEqual([]);
    expect(poolWorkersOf(child.pid!)).toEqual([]);
    expect(s.gdalAtWork()).toEqual([]);
    // The render cache was its own directory, and went with it.
    expect(renderCache).toMatch(/geohub-render-/);
    expect(existsSync(renderCache)).toBe(false);
  });
});
