import { mkdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awsEnvFor } from '../../local/hub/control-plane/hub-control-plane.js';
import type { LocalHub } from '../../local/hub/local-hub.js';
import { OPERATOR } from '../../local/iam/local-iam.js';
import { launchChromium } from '../support/browser.js';
import { runCli, startCli } from '../support/cli.js';
import { startTestHub } from '../support/hub.js';
import { processMark } from '../support/marked-processes.js';
import { ARTIFACTS, DONE_COLOUR } from '../support/page-session.js';
import { colourFigures, decodePng } from '../support/screenshot-pixels.js';
import { tempDir } from '../support/temp-dir.js';
import { waitUntil } from '../support/wait-until.js';

// `geohub console --stage`: the run-control page for a deployed stage, served from the operator's
// machine and reading "AWS" (the local stand-ins behind the SDK's endpoint overrides) with the
// operator's key, under the stack's operator policy with IAM enforced.
const RGB = new URL('../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
let hub: LocalHub;
let env: Record<string, string>;
let console: ReturnType<typeof startCli> | undefined;
const mark = processMark();
let browser: Browser | undefined;
let page: Page;
let base: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  hub = await startTestHub({ controlPlane: true });
  env = { ...awsEnvFor(hub.stack, hub.controlPlane!, OPERATOR), AWS_PROFILE: '' };
  // In a process group of its own, marked, as a terminal's foreground job: the last test's Ctrl-C.
  console = startCli(
    ['console', '--stage', 'local', '--port', '0', '--json'],
    { ...env, ...mark.env },
    { detached: true },
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: console!.child.stdout! }).once('line', resolve);
    console!.child.once('exit', (code) => reject(new Error(`geohub console exited early (${code})`)));
  });
  const ready = JSON.parse(line) as { url: string; pageUrl: string; stage: string };
  expect(ready.stage).toBe('local');
  base = ready.url;
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
  await page.goto(ready.pageUrl);
});
afterAll(async () => {
  try {
    await browser?.close();
  } finally {
    if (console && console.child.exitCode === null) process.kill(-console.child.pid!, 'SIGINT');
    await console?.done;
    await hub?.stop();
  }
});

const shows = async (check: () => Promise<boolean>, ms = 30_000) =>
  expect(await waitUntil(check, ms, 100)).toBe(true);

describe('geohub console --stage: the run-control page of a deployed stack', () => {
  it('shows a run submitted to the stage, its sub-tiles DONE and its output imagery; saves a screenshot', async () => {
    const submitted = await runCli(['submit', RGB, '--stage', 'local', '--json'], env);
    expect(submitted.code, submitted.stderr).toBe(0);
    const { runId } = JSON.parse(submitted.stdout) as { runId: string };
    const watched = await runCli(['status', runId, '--watch', '--stage', 'local', '--json'], env);
    expect(JSON.parse(watched.stdout).status).toBe('SUCCEEDED');
    const total = (JSON.parse(watched.stdout) as { counters: { total: number } }).counters.total;

    await page.goto(`${base}/#run=${runId}`);
    const row = page.locator(`#runs tr[data-run-id="${runId}"]`);
    await shows(
      async () => (await row.count()) === 1 && (await row.locator('.status').textContent()) === 'SUCCEEDED',
    );
    const done = page.locator(`#map path.subtile[fill="${DONE_COLOUR}"]`);
    await shows(async () => (await done.count()) === total);
    // The output imagery, read from the stage's bucket with the operator's key and drawn locally.
    const images = page.locator('#map img.output-tile.loaded');
    await shows(async () => (await images.count()) === total, 60_000);
    await shows(async () => (await page.locator('#map').getAttribute('data-world')) === 'loaded', 60_000);
    await page.waitForTimeout(500); // the images' fade-in (map.css)
    await page.screenshot({ path: `${ARTIFACTS}page-stage-console.png` });
    const pixels = decodePng(await page.screenshot(), tempDir('geohub-shot-'));
    const boxes = (await page.locator('#map path.subtile').all()).map((p) => p.boundingBox());
    const figures = (await Promise.all(boxes)).flatMap((b) => (b ? [colourFigures(pixels, b)] : []));
    expect(figures.filter((f) => f.colours > 1000 && f.top3Share < 0.3).length).toBeGreaterThanOrEqual(4);
    // It says which stage it shows; the workers are Fargate tasks, not a pool of its own.
    expect(await page.locator('#stack').textContent()).toMatch(
      /^stage local · us-east-1 · 127\.0\.0\.1:\d+$/,
    );
    expect(await page.locator('#workers').textContent()).toContain("the stage's workers are Fargate tasks");
    expect(pageErrors).toEqual([]);
  });

  it('is for the operator only: no login, no page; no API without the session', async () => {
    const anonymous = await fetch(`${base}/api/runs`);
    expect(anonymous.status).toBe(401);
    const upload = await fetch(`${base}/api/uploads`, { method: 'POST' });
    expect([401, 403]).toContain(upload.status);
  });

  // Ctrl-C as a terminal sends it, to the whole group, with the page still open and polling.
  it('stops on Ctrl-C to its process group: exit 130, its port closed, nothing of it left', async () => {
    await page.goto(base);
    process.kill(-console!.child.pid!, 'SIGINT');
    const r = await console!.done;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).not.toMatch(/\n\s+at |Error/);
    await expect(fetch(`${base}/api/runs`)).rejects.toThrow();
    expect(mark.live()).toEqual([]);
  });
});
