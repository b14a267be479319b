import { describe, expect, it } from 'vitest';
import { ARTIFACTS, DONE_COLOUR, usePageSession } from '../support/page-session.js';
import { colourFigures, decodePng } from '../support/screenshot-pixels.js';
import { tempDir } from '../support/temp-dir.js';
import { waitUntil } from '../support/wait-until.js';

const RGB = new URL('../../examples/raster/RGB.byte.tif', import.meta.url).pathname;

const s = usePageSession();

/** The zoom levels of the output images drawn on the map now (from their render URLs). */
async function drawnZooms(): Promise<number[]> {
  const sources = await s.outputImages().evaluateAll((imgs) => imgs.map((i) => (i as { src: string }).src));
  return [...new Set(sources.map((src) => Number(/\/render\/(\d+)\//.exec(src)?.[1])))].sort();
}

/** The map's imagery inside the run's outline: how many colours, how dominant the top three. */
async function imageryIn(file: string) {
  // The images fade in (map.css): let the transition end.
  await s.page.waitForTimeout(500);
  await s.page.screenshot({ path: `${ARTIFACTS}${file}` });
  const pixels = decodePng(await s.page.screenshot(), tempDir('geohub-shot-'));
  const outline = (await s.page.locator('#map path.run-outline').boundingBox())!;
  return colourFigures(pixels, outline);
}

describe('the run-control page browses a pyramid across its zoom levels', () => {
  it('draws a lower level zoomed out and the base zoomed in, each from its own tiles', async () => {
    const { runId } = await s.submit(RGB, '6-9');
    expect(await waitUntil(async () => (await s.runOf(runId))?.status === 'SUCCEEDED', 120_000, 500)).toBe(
      true,
    );
    const run = (await s.runOf(runId))!;
    // 20 tiles at zoom 9, 6 at 8, 4 at 7, 2 at 6: the map shows the base level's sub-tiles.
    expect(run.counters.total).toBe(32);
    await s.page.goto(`${s.base}/#run=${runId}`);
    await s.pageShows(async () => (await s.subtiles(DONE_COLOUR).count()) === 20, 60_000);
    await s.pageShows(async () =>
      ((await s.page.locator('#run-detail').textContent()) ?? '').includes('zooms 6-9'),
    );
    const map = s.page.locator('#map');
    await s.pageShows(async () => (await map.getAttribute('data-world')) === 'loaded', 60_000);

    // Fitted to the run's outline, the view is coarser than the base: a lower level's own tiles.
    await s.pageShows(async () => {
      const zooms = await drawnZooms();
      return zooms.length === 1 && zooms[0]! < 9;
    }, 60_000);
    const lower = (await drawnZooms())[0]!;
    const zoomedOut = await imageryIn(`page-pyramid-zoom-${lower}.png`);
    expect(zoomedOut.colours).toBeGreaterThan(1000);

    // Zoomed in past the base level: the base's tiles, a level the page asked for on its own.
    for (let click = 0; click < 4 && !(await drawnZooms()).includes(9); click++) {
      await s.page.locator('.leaflet-control-zoom-in').click();
      await s.pageShows(async () => (await s.outputImages().count()) > 0, 60_000);
    }
    await s.pageShows(async () => (await drawnZooms()).includes(9), 60_000);
    const zoomedIn = await imageryIn('page-pyramid-zoom-9.png');
    expect(zoomedIn.colours).toBeGreaterThan(1000);
    expect(lower).toBeGreaterThanOrEqual(6);
    s.expectLocalOnly();
  }, 240_000);
});
