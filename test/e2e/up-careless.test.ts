import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHostileUp } from '../support/hostile-up.js';
import { waitUntil } from '../support/wait-until.js';

const RGB = new URL('../../examples/raster/RGB.byte.tif', import.meta.url).pathname;

const h = useHostileUp();

describe('geohub up under careless use (issue 20)', () => {
  it('#2 #6 a directory or a FIFO given to submit is one clear line, and up keeps answering', async () => {
    const dir = join(h.base, 'data');
    const fifo = join(h.base, 'data', 'pipe.tif');
    execFileSync('mkfifo', [fifo]);
    const d = await h.cli('submit', dir);
    expect(d.code).toBe(1);
    expect(d.stderr.trim()).toBe(`geohub: cannot read ${dir}: it is a directory, not a regular file`);
    for (let i = 0; i < 5; i += 1) {
      const f = await h.cli('submit', fifo);
      expect(f.stderr.trim()).toBe(
        `geohub: cannot read ${fifo}: it is a FIFO (named pipe), not a regular file`,
      );
    }
    rmSync(fifo);
    expect((await h.up.fetch('/api/runs')).status).toBe(200);
    expect((await h.up.fetch('/')).status).toBe(200);
  });

  it('#5 a sparse file given to submit is refused before a byte is sent, as by run', async () => {
    const sparse = join(h.base, 'data', 'sparse.tif');
    writeFileSync(sparse, '');
    truncateSync(sparse, 50 * 1024 ** 3);
    const before = ((await (await h.up.fetch('/api/runs')).json()) as unknown[]).length;
    try {
      const r = await h.cli('submit', sparse);
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(
        `geohub: ${sparse} is a sparse file (50.0 GB, 0.0 GB of it on disk): the local stack would copy all 50.0 GB; write it out in full (e.g. gdal_translate) or run it on AWS`,
      );
    } finally {
      rmSync(sparse);
    }
    // Nothing reached the server: no upload directory, no run.
    expect(readdirSync(join(h.base, 'tmp')).filter((e) => e.startsWith('geohub-up-upload-'))).toEqual([]);
    expect(((await (await h.up.fetch('/api/runs')).json()) as unknown[]).length).toBe(before);
  });

  it('#4 twenty parallel submits of one file all get their own run', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => h.cli('submit', RGB, '--zoom', '4')));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const runs = results.map((r) => JSON.parse(r.stdout) as { outcome: string; runId: string });
    expect(runs.every((r) => r.outcome === 'started')).toBe(true);
    expect(new Set(runs.map((r) => r.runId)).size).toBe(20);
  });

  it('#14 verify of an unknown run says "no such run"; another stack\'s .part is not this run\'s', async () => {
    const unknown = await h.cli('verify', 'r-00000000000000000000');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('geohub: no such run: r-00000000000000000000');
    // A leftover of another stack, in the same temp dir, named as a pool's scratch.
    const other = join(h.base, 'tmp', 'geohub-pool-9-other');
    mkdirSync(other);
    writeFileSync(join(other, 'x.tif.part'), 'not ours');
    try {
      // Its own run, waited for: leaning on #4's twenty runs having finished raced them (CI, stop 26).
      const submit = await h.cli('submit', RGB, '--zoom', '4');
      expect(submit.code, submit.stderr).toBe(0);
      const { runId } = JSON.parse(submit.stdout) as { runId: string };
      const status = async () => {
        const runs = (await (await h.up.fetch('/api/runs')).json()) as { runId: string; status: string }[];
        return runs.find((r) => r.runId === runId)?.status;
      };
      expect(
        await waitUntil(
          async () => ['SUCCEEDED', 'FAILED', 'ABORTED', 'TIMED_OUT'].includes((await status()) ?? 'RUNNING'),
          120_000,
          250,
        ),
      ).toBe(true);
      expect(await status()).toBe('SUCCEEDED');
      const verify = await h.cli('verify', runId);
      expect(JSON.parse(verify.stdout)).toMatchObject({ ok: true, parts: [] });
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('#15 a 5,000-character run id is refused before any lookup', async () => {
    const id = 'a'.repeat(5_000);
    const r = await h.cli('status', id);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('geohub: not a run id: a run id is 8 to 64 of [0-9a-z-]');
    for (const path of [
      `/api/runs/${id}`,
      `/api/runs/${id}/tiles`,
      `/api/runs/${id}/verify`,
      `/api/runs/${id}/tile-states`,
    ]) {
      const res = await h.up.fetch(path);
      expect(res.status, path).toBe(400);
    }
  });

  it('Ctrl-C with runs in flight: up cancels them and exits, nothing it started left waiting out a timeout', async () => {
    // Its Lambda tasks are mid-invocation when the pool stops; each such invocation once kept a
    // timer of up to 15 minutes (the function's timeout) and up alive after "stopped" (CI, run 21).
    const submits = await Promise.all([1, 2, 3].map(() => h.cli('submit', RGB, '--zoom', '11')));
    for (const r of submits) expect(r.code, r.stderr).toBe(0);
    const ids = submits.map((r) => (JSON.parse(r.stdout) as { runId: string }).runId);
    const running = async () => {
      const runs = (await (await h.up.fetch('/api/runs')).json()) as { runId: string; status: string }[];
      return runs.some((r) => ids.includes(r.runId) && r.status === 'RUNNING');
    };
    expect(await waitUntil(running, 60_000, 200)).toBe(true);
    h.up.child.kill('SIGINT');
    const bound = new Promise<'still running'>((resolve) =>
      setTimeout(() => resolve('still running'), 60_000).unref(),
    );
    const outcome = await Promise.race([h.up.done, bound]);
    expect(outcome).not.toBe('still running');
    const r = outcome as Awaited<typeof h.up.done>;
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/geohub up: stopped; cancelled .*\(CANCELLED\)/);
    expect(h.mark.live()).toEqual([]);
  });
});
