import { readdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { describe, expect, it, onTestFinished } from 'vitest';
import { processTable } from '../../lib/process/process-table.js';
import { startCli } from '../support/cli.js';
import { findFiles } from '../support/find-files.js';
import { processMark } from '../support/marked-processes.js';
import { stubbornGdalwarp } from '../support/stubborn-tool.js';
import { tempDir } from '../support/temp-dir.js';
import { waitUntil } from '../support/wait-until.js';

const RGB = new URL('../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const KILL_GRACE_MS = 5_000;

/** A CLI in a process group of its own (a terminal's foreground job), marked and with its own TMPDIR. */
function start(args: string[], env: Record<string, string> = {}) {
  const tmp = tempDir('geohub-tmp-');
  const mark = processMark();
  const cli = startCli(args, { ...mark.env, TMPDIR: tmp, ...env }, { detached: true });
  // A test that fails half-way still stops what it started (registered after tempDir's removal,
  // so it runs first): Ctrl-C to the group, then SIGKILL to whatever of it is left.
  onTestFinished(async () => {
    if (cli.child.exitCode === null && cli.child.signalCode === null) {
      process.kill(-cli.child.pid!, 'SIGINT');
      await Promise.race([cli.done, new Promise((r) => setTimeout(r, 30_000))]);
    }
    for (const line of mark.live()) {
      try {
        process.kill(Number(line.split(' ')[0]), 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
  });
  return { ...cli, tmp, mark };
}

const toolRunning = (mark: { live: () => string[] }) =>
  mark.live().some((p) => / (gdalwarp|gdal-metatile) /.test(p));
const parts = (dir: string) => findFiles(dir, (n) => n.endsWith('.part'));

describe('Ctrl-C as a terminal sends it: SIGINT to the whole process group (issue 14)', () => {
  it('geohub run: exit 130 within the kill grace + 5 s, run CANCELLED, one line, nothing left', async () => {
    const run = start(['run', RGB, '--out', `${tempDir('geohub-out-')}/out`, '--json'], {
      ...stubbornGdalwarp(),
      GEOHUB_KILL_GRACE_MS: String(KILL_GRACE_MS),
    });
    expect(await waitUntil(() => toolRunning(run.mark), 120_000, 200)).toBe(true);
    // The stubborn tool's outputs exist before the Ctrl-C: "no .part" below means removed.
    expect(await waitUntil(() => parts(run.tmp).length > 0, 10_000, 100)).toBe(true);
    const interrupted = Date.now();
    process.kill(-run.child.pid!, 'SIGINT');
    const r = await run.done;
    const took = Date.now() - interrupted;
    expect(r.code, r.stderr).toBe(130);
    expect(took).toBeLessThan(KILL_GRACE_MS + 5_000);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'CANCELLED' });
    // Progress lines come before the Ctrl-C; from it on, one line, and no stack trace anywhere.
    const after = r.stderr.slice(r.stderr.indexOf('geohub run: cancelling')).trim().split('\n');
    expect(after).toEqual([
      expect.stringMatching(
        /^geohub run: cancelling the run cleanly… the run cancelled \(0\/\d+ sub-tiles done\)$/,
      ),
    ]);
    expect(r.stderr).not.toMatch(/\n\s+at |ECONNREFUSED/);
    expect(run.mark.live()).toEqual([]);
    expect(readdirSync(run.tmp)).toEqual([]); // no scratch, no .part, no stand-in data
  });

  it('geohub up: exit 130 within the kill grace + 5 s, the running run CANCELLED, nothing left', async () => {
    const up = start(['up', '--port', '0', '--json'], {
      ...stubbornGdalwarp(),
      GEOHUB_KILL_GRACE_MS: String(KILL_GRACE_MS),
    });
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: up.child.stdout! }).once('line', resolve);
      up.child.once('exit', (code) => reject(new Error(`geohub up exited early (${code})`)));
    });
    const port = new URL((JSON.parse(line) as { url: string }).url).port;
    const submit = startCli(['submit', RGB, '--port', port, '--json']);
    const submitted = await submit.done;
    expect(submitted.code, submitted.stderr).toBe(0);
    const { runId } = JSON.parse(submitted.stdout) as { runId: string };
    expect(await waitUntil(() => toolRunning(up.mark), 120_000, 200)).toBe(true);
    expect(await waitUntil(() => parts(up.tmp).length > 0, 10_000, 100)).toBe(true);
    const interrupted = Date.now();
    process.kill(-up.child.pid!, 'SIGINT');
    const r = await up.done;
    expect(r.code, r.stderr).toBe(130);
    expect(Date.now() - interrupted).toBeLessThan(KILL_GRACE_MS + 5_000);
    expect(r.stderr.trim().split('\n')).toEqual([`geohub up: stopped; cancelled ${runId} (CANCELLED)`]);
    expect(up.mark.live()).toEqual([]);
    expect(readdirSync(up.tmp)).toEqual([]);
  });
});

describe('every exit path stops everything (issue 20 #3)', () => {
  it('stdout closed early (| head -1): the run still ends SUCCEEDED, exit 0, nothing left', async () => {
    const run = start(['run', RGB, '--out', `${tempDir('geohub-out-')}/out`, '--zoom', '8']);
    run.child.stdout!.destroy();
    const r = await run.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/succeeded: \d+\/\d+ sub-tiles done/);
    expect(r.stderr).not.toMatch(/\n\s+at |EPIPE/);
    expect(run.mark.live()).toEqual([]);
    expect(readdirSync(run.tmp)).toEqual([]);
  });

  it('a SIGKILL of the DynamoDB Local wrapper takes its Java with it', async () => {
    const up = start(['up', '--port', '0', '--json']);
    await new Promise<string>((resolve, reject) => {
      createInterface({ input: up.child.stdout! }).once('line', resolve);
      up.child.once('exit', (code) => reject(new Error(`geohub up exited early (${code})`)));
    });
    const ours = new Set(up.mark.live().map((p) => Number(p.split(' ')[0])));
    const table = processTable().filter((p) => ours.has(p.pid));
    const wrapper = table.find((p) => /emulator-main\.js dynamodb /.test(p.args));
    const java = table.find((p) => p.args.includes('DynamoDBLocal.jar'));
    expect(wrapper, JSON.stringify(table.map((p) => p.args))).toBeDefined();
    expect(java).toBeDefined();
    process.kill(wrapper!.pid, 'SIGKILL');
    expect(
      await waitUntil(() => !processTable().some((p) => p.pid === java!.pid && p.state !== 'Z'), 10_000, 100),
    ).toBe(true);
    process.kill(-up.child.pid!, 'SIGINT');
    await up.done;
    expect(up.mark.live()).toEqual([]);
    expect(readdirSync(up.tmp)).toEqual([]);
  });
});
