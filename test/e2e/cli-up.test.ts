import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { processMark } from '../support/marked-processes.js';
import { slowGeoTiff } from '../support/raster-fixtures.js';
import { tempDir } from '../support/temp-dir.js';
import { startUp, type UpSession } from '../support/up-session.js';
import { waitUntil } from '../support/wait-until.js';

const RGB = new URL('../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
let up: UpSession;
let port = '';

const mark = processMark();
const toolRunning = () => mark.live().some((p) => / (gdalwarp|gdal-metatile) /.test(p));
/** geohub up's own temp dir: its scratch and stand-in data, judged apart from other stacks'. */
const tmp = mkdtempSync(join(tmpdir(), 'geohub-up-tmp-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

beforeAll(async () => {
  up = await startUp({ ...mark.env, TMPDIR: tmp });
  port = up.port;
});
afterAll(async () => {
  up?.child.kill('SIGINT');
  await up?.done;
});

const cli = (...args: string[]) => runCli([...args, '--port', port, '--json']);
async function statusOf(runId: string) {
  const r = await cli('status', runId);
  return JSON.parse(r.stdout) as { status: string; counters: { done: number; total: number } };
}

describe('geohub up and the commands that talk to it', () => {
  it('submit → status → verify: a run ends SUCCEEDED and verifies clean', async () => {
    const submitted = JSON.parse((await cli('submit', RGB)).stdout) as { outcome: string; runId: string };
    expect(submitted.outcome).toBe('started');
    expect(
      await waitUntil(async () => (await statusOf(submitted.runId)).status === 'SUCCEEDED', 120_000, 500),
    ).toBe(true);
    const list = JSON.parse((await cli('status')).stdout) as { runs: { runId: string }[] };
    expect(list.runs.map((r) => r.runId)).toContain(submitted.runId);
    // The capacity the workers run on (spot → on-demand fallback), with the workers' cost so far.
    const view = JSON.parse((await cli('status', submitted.runId)).stdout) as {
      capacity: { mode: string; workers: { spot: number; onDemand: number }; cost: { total: number } };
    };
    expect(view.capacity.mode).toBe('spot');
    expect(view.capacity.workers.spot + view.capacity.workers.onDemand).toBeGreaterThan(0);
    expect(view.capacity.cost.total).toBeGreaterThan(0);
    const text = await runCli(['status', submitted.runId, '--port', port]);
    expect(text.stdout).toMatch(
      /^capacity: \d+ spot \+ \d+ on-demand workers, new ones on spot; interruption rate \d+ % vs break-even \d+ %/m,
    );
    const verify = await cli('verify', submitted.runId);
    expect(verify.code).toBe(0);
    expect(JSON.parse(verify.stdout)).toMatchObject({
      ok: true,
      gaps: [],
      parts: [],
      orphans: [],
      claimsHeld: 0,
    });
  });

  it('cancel stops a running run; redrive finishes it', async () => {
    // 40×: its one metatile's tool takes ~9 s, well past the cancel's own CLI start and the worker's
    // status poll; the 20× source's ended in ~2 s on a warm engine (the page test's cancel, session 13).
    const slow = slowGeoTiff(tempDir('geohub-slowtif-'), 40);
    const submitted = JSON.parse((await cli('submit', slow, '--zoom', '13')).stdout) as {
      runId: string;
    };
    expect(await waitUntil(() => toolRunning(), 90_000, 100)).toBe(true);
    const cancel = await cli('cancel', submitted.runId);
    expect(cancel.code).toBe(0);
    expect(
      await waitUntil(async () => (await statusOf(submitted.runId)).status === 'CANCELLED', 10_000, 200),
    ).toBe(true);
    expect(await waitUntil(() => !toolRunning(), 10_000, 100)).toBe(true);
    const verify = JSON.parse((await cli('verify', submitted.runId)).stdout) as {
      claimsHeld: number;
      parts: string[];
    };
    expect(verify).toMatchObject({ claimsHeld: 0, parts: [] });

    const redrive = JSON.parse((await cli('redrive', '--run', submitted.runId)).stdout) as {
      runs: { runId: string; unparked: number }[];
    };
    expect(redrive.runs[0]?.unparked).toBeGreaterThan(0);
    expect(
      await waitUntil(async () => (await statusOf(submitted.runId)).status === 'SUCCEEDED', 180_000, 500),
    ).toBe(true);
    // The run's chain of executions: the upload's, stopped by the cancel, then the re-drive's.
    const text = (await runCli(['status', submitted.runId, '--port', port])).stdout;
    expect(text).toMatch(/^executions \(2\):$/m);
    expect(text).toMatch(/^ {2}1\. \S+ {2}ABORTED \(upload, started /m);
    expect(text).toMatch(/^ {2}2\. \S+ {2}SUCCEEDED \(redrive, started /m);
  });

  it('refuses state changes a web page could forge: other host names, non-JSON posts', async () => {
    // With the secret (the user's own browser could be tricked into these): still refused.
    const form = await up.fetch('/api/redrive', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'runId=x',
    });
    expect(form.status).toBe(403);
    // fetch() may not set Host; a DNS-rebinding page would arrive with its own host name.
    const rebound = await new Promise<number>((resolve, reject) => {
      const headers = { host: 'evil.example', authorization: `Bearer ${up.token}` };
      request({ host: '127.0.0.1', port, path: '/api/runs', headers }, (r) => {
        r.resume();
        resolve(r.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
    expect(rebound).toBe(403);
    expect((await up.fetch('/api/runs')).status).toBe(200);
  });

  it('Ctrl-C stops geohub up and everything it started', async () => {
    up.child.kill('SIGINT');
    const r = await up.done;
    expect(r.code).toBe(130);
    // Its own processes (other stacks may be running on this machine).
    expect(mark.live()).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);
  });
});
