import { request } from 'node:http';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from '../support/cli.js';
import { leftoverParts, leftoverProcesses } from '../support/leftovers.js';
import { slowGeoTiff } from '../support/raster-fixtures.js';
import { waitUntil } from '../support/wait-until.js';

const RGB = new URL('../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
let up: ReturnType<typeof startCli>;
let port = '';

beforeAll(async () => {
  up = startCli(['up', '--port', '0', '--json']);
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: up.child.stdout! }).once('line', resolve);
    up.child.once('exit', (code) => reject(new Error(`geohub up exited early (${code})`)));
  });
  port = String(new URL((JSON.parse(line) as { url: string }).url).port);
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
    const submitted = JSON.parse((await cli('submit', slowGeoTiff(), '--zoom', '13')).stdout) as {
      runId: string;
    };
    expect(
      await waitUntil(() => leftoverProcesses().some((p) => /gdalwarp|warp-metatile/.test(p)), 90_000, 100),
    ).toBe(true);
    const cancel = await cli('cancel', submitted.runId);
    expect(cancel.code).toBe(0);
    expect(
      await waitUntil(async () => (await statusOf(submitted.runId)).status === 'CANCELLED', 10_000, 200),
    ).toBe(true);
    expect(
      await waitUntil(() => !leftoverProcesses().some((p) => /gdalwarp|warp-metatile/.test(p)), 10_000, 100),
    ).toBe(true);
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
  });

  it('refuses state changes a web page could forge: other host names, non-JSON posts', async () => {
    const base = `http://127.0.0.1:${port}`;
    const form = await fetch(`${base}/api/redrive`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'runId=x',
    });
    expect(form.status).toBe(403);
    // fetch() may not set Host; a DNS-rebinding page would arrive with its own host name.
    const rebound = await new Promise<number>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/api/runs', headers: { host: 'evil.example' } }, (r) => {
        r.resume();
        resolve(r.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
    expect(rebound).toBe(403);
    expect((await fetch(`${base}/api/runs`)).status).toBe(200);
  });

  it('Ctrl-C stops geohub up and everything it started', async () => {
    up.child.kill('SIGINT');
    const r = await up.done;
    expect(r.code).toBe(0);
    expect(leftoverProcesses()).toEqual([]);
    expect(leftoverParts()).toEqual([]);
  });
});
