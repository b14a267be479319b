import { mkdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { basename } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchChromium } from './browser.js';
import { processMark } from './marked-processes.js';
import { type Box, decodePng } from './screenshot-pixels.js';
import { tempDir } from './temp-dir.js';
import { startUp, type UpSession } from './up-session.js';
import { waitUntil } from './wait-until.js';

export const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url).pathname;
/** The colour the page gives DONE sub-tiles (assets/tile-states.js). */
export const DONE_COLOUR = '#2b9348';

export interface PageRun {
  runId: string;
  status: string;
  reason?: string;
  counters: { total: number; done: number; cancelled: number; parked: number };
}
export interface TileFeature {
  geometry: { coordinates: number[][][] };
  properties: { z: number; x: number; y: number; state: string };
}

/**
 * `geohub up` and a headless Chromium on its page, for one test file: started before its tests
 * (at the smallest screen the page is made for, logged in by the one-time URL up prints) and
 * stopped after them, whatever fails. Every request and error of the page is recorded.
 */
export class PageSession {
  up!: UpSession;
  browser: Browser | undefined;
  page!: Page;
  /** Uncaught errors and console errors of the page (a CSP violation is one). */
  readonly pageErrors: string[] = [];
  /** Every URL the page requested: all must be on the local server. */
  readonly requested: string[] = [];
  /** The runs this file started. */
  readonly runIds: string[] = [];
  /** The mark in the environment of everything its `geohub up` starts (workers, engines, tools). */
  readonly mark = processMark();

  /**
   * GDAL at work for this session's runs: a per-tile gdalwarp, or a metatile engine in the middle
   * of a request (named `gdal-metatile` only then). By the session's mark, since one engine serves
   * every run and is reparented once up has gone; the page's tests run one run at a time.
   */
  gdalAtWork(): string[] {
    return this.mark.live().filter((p) => / (gdalwarp|gdal-metatile) /.test(p));
  }

  get base(): string {
    return this.up.url;
  }

  /** fetch() as the user who started up: every request of the tests goes with the secret. */
  fetch(url: string, init: RequestInit = {}): Promise<Response> {
    return globalThis.fetch(url, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${this.up.token}` },
    });
  }

  async api<T>(path: string, init?: RequestInit): Promise<T> {
    // State changes go as JSON, as the page sends them: the API refuses anything else.
    const json =
      init?.method === 'POST'
        ? { headers: { 'content-type': 'application/json' }, body: init.body ?? '{}' }
        : {};
    const r = await this.fetch(`${this.base}${path}`, { ...init, ...json });
    if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
    return (await r.json()) as T;
  }

  /** The run, or undefined until its split records it. */
  async runOf(runId: string): Promise<PageRun | undefined> {
    const r = await this.fetch(`${this.base}/api/runs/${runId}`);
    if (r.status === 404) return undefined;
    if (!r.ok) throw new Error(`run ${runId}: ${r.status} ${await r.text()}`);
    return (await r.json()) as PageRun;
  }

  /** As `geohub submit` does: the file itself is streamed; the server opens no path it is sent. */
  async submit(path: string, zoom?: number | string): Promise<{ runId: string }> {
    const query = new URLSearchParams({
      name: basename(path),
      ...(zoom === undefined ? {} : { zoom: String(zoom) }),
    });
    const r = await this.fetch(`${this.base}/api/uploads?${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: readFileSync(path),
    });
    if (!r.ok) throw new Error(`submit ${path}: ${r.status} ${await r.text()}`);
    // Progress lines while the file is stored, then the outcome (local/server/receive-upload.ts).
    const { runId } = JSON.parse((await r.text()).trim().split('\n').at(-1)!) as { runId: string };
    this.runIds.push(runId);
    return { runId };
  }

  /** A GET with the path sent exactly as written (fetch would normalise `..` away). */
  rawGet(path: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const { hostname, port } = new URL(this.base);
      const headers = { authorization: `Bearer ${this.up.token}` };
      request({ hostname, port, path, method: 'GET', headers }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
  }

  /** Polls the page (through its locators) until `check` holds. */
  async pageShows(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
    expect(await waitUntil(check, timeoutMs, 100)).toBe(true);
  }

  rowOf = (runId: string) => this.page.locator(`#runs tr[data-run-id="${runId}"]`);
  statusIn = async (runId: string) => this.rowOf(runId).locator('.status').textContent();
  subtiles = (colour?: string) =>
    this.page.locator(colour ? `#map path.subtile[fill="${colour}"]` : '#map path.subtile');
  legendCount = async (state: string) =>
    Number(
      (await this.page.locator(`.map-legend .count[data-state="${state}"]`).textContent())?.replace(/,/g, ''),
    );
  outputImages = () => this.page.locator('#map img.output-tile.loaded');

  /** The screen boxes of the sub-tiles drawn on the map (the state overlay's polygons). */
  async subtileBoxes(): Promise<Box[]> {
    const boxes = await Promise.all((await this.subtiles().all()).map((p) => p.boundingBox()));
    return boxes.filter((b): b is Box => b !== null);
  }

  /** Waits for the run's output and the world outline to be drawn, then screenshots the page. */
  async screenshotWithOutput(tiles: number, file: string) {
    const map = this.page.locator('#map');
    await this.pageShows(async () => (await map.getAttribute('data-world')) === 'loaded', 60_000);
    await this.pageShows(async () => (await this.outputImages().count()) === tiles, 60_000);
    // The story has said how the output is drawn (the legend's line).
    await this.pageShows(async () => Boolean(await this.page.locator('#output-style').textContent()), 30_000);
    // The images fade in (map.css): let the transition end.
    await this.page.waitForTimeout(500);
    await this.page.screenshot({ path: `${ARTIFACTS}${file}` });
    return decodePng(await this.page.screenshot(), tempDir('geohub-shot-'));
  }

  /** Every page request went to the local server, and the page logged no error. */
  expectLocalOnly(): void {
    // From the first load on: the one-time login URL is the first request seen.
    expect(this.requested[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?login=/);
    const away = this.requested.filter((u) => !u.startsWith(`${this.base}/`) && !u.startsWith('data:'));
    expect(away).toEqual([]);
    expect(new URL(this.base).hostname).toBe('127.0.0.1');
    expect(this.pageErrors).toEqual([]);
  }
}

/** Registers the file's beforeAll/afterAll; the session's fields are set once beforeAll ran. */
export function usePageSession(): PageSession {
  const session = new PageSession();
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    session.up = await startUp(session.mark.env);
    session.browser = await launchChromium();
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 800 } });
    session.page = page;
    // Listening from the first load on: its requests and errors count too.
    page.on('pageerror', (e) => session.pageErrors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') session.pageErrors.push(m.text());
    });
    page.on('request', (r) => session.requested.push(r.url()));
    // The one-time login URL geohub up prints: the page keeps the secret as a cookie from here on.
    await page.goto(session.up.pageUrl);
  });
  afterAll(async () => {
    // Both, whatever fails: the browser first (it talks to up), then up itself.
    try {
      await session.browser?.close();
    } finally {
      const child = session.up?.child;
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await session.up?.done;
    }
  });
  return session;
}
