import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countClaims } from '../../lib/ledger/tile-records.js';
import { tilesPrefix } from '../../lib/model/ids.js';
import { processTable } from '../../lib/process/process-table.js';
import { isToolProcess } from '../../lib/process/tool-processes.js';
import { awsEnvFor } from '../../local/hub/control-plane/hub-control-plane.js';
import type { LocalHub } from '../../local/hub/local-hub.js';
import { OPERATOR } from '../../local/iam/local-iam.js';
import { ADMINISTRATOR } from '../../local/stack/stack.js';
import { runCli } from '../support/cli.js';
import { findFiles } from '../support/find-files.js';
import { recordToolStarts, startTestHub } from '../support/hub.js';
import { seedLedgerRun } from '../support/ledger-run.js';
import { slowGeoTiff } from '../support/raster-fixtures.js';
import { tempDir } from '../support/temp-dir.js';
import { gdalTileCover } from '../support/tile-oracle.js';
import { waitUntil } from '../support/wait-until.js';

// The deployed-stage mode of the CLI (`--stage`), against the local stand-ins as if they were AWS:
// the stack's outputs from CloudFormation's DescribeStacks, the SDK's own endpoint overrides, the
// operator's key, and IAM enforcing the stack's operator policy on every call.
const RGB = new URL('../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
let hub: LocalHub;
let awsEnv: Record<string, string>;
const toolStarts: { runId: string; pid: number }[] = [];

beforeAll(async () => {
  hub = await startTestHub({
    controlPlane: true,
    // Tool starts are logged at info: the test waits for the slow run's first one.
    workerEnv: { GEOHUB_LOG_LEVEL: 'info' },
    onWorkerLog: recordToolStarts(toolStarts),
  });
  awsEnv = awsEnvFor(hub.stack, hub.controlPlane!, OPERATOR);
});
afterAll(async () => {
  await hub?.stop();
});

/** `geohub <args> --stage local`, as an operator with the stack's policy and nothing else. */
const stage = async <T = Record<string, unknown>>(...args: string[]) => {
  const r = await runCli([...args, '--stage', 'local'], { ...awsEnv, AWS_PROFILE: '' });
  return { ...r, json: (() => (r.stdout.trim().startsWith('{') ? JSON.parse(r.stdout) : undefined))() as T };
};
const toolsOf = (runId: string) => {
  const groups = toolStarts.filter((t) => t.runId === runId).map((t) => t.pid);
  return processTable().filter((p) => isToolProcess(p) && groups.includes(p.pgid));
};

type Run = { runId: string; status: string; reason?: string; counters: { done: number; total: number } };
let first: string;
let second: string;

describe('the CLI on a deployed stage (--stage), under the operator policy with IAM enforced', () => {
  it('submits a file, prints the run and its console link, and watches it to SUCCEEDED', async () => {
    const submitted = await stage<{ outcome: string; runId: string; console: string }>(
      'submit',
      RGB,
      '--zoom',
      '8',
      '--json',
    );
    expect(submitted.code, submitted.stderr).toBe(0);
    expect(submitted.json.outcome).toBe('started');
    first = submitted.json.runId;
    expect(submitted.json.console).toBe(
      `https://us-east-1.console.aws.amazon.com/states/home?region=us-east-1#/v2/executions/details/arn:aws:states:us-east-1:000000000000:execution:geohub-local:${first}`,
    );
    const watched = await stage<Run>('status', first, '--watch', '--json');
    expect(watched.code, watched.stderr).toBe(0);
    expect(watched.json).toMatchObject({ runId: first, status: 'SUCCEEDED' });
    expect(watched.json.counters.done).toBe(gdalTileCover(RGB, 8).length);
    // The progress went to stderr, the result to stdout.
    expect(watched.stderr).toMatch(/succeeded: \d+\/\d+ sub-tiles done/i);
  });

  it('cancels a second run mid-way: CANCELLED on return, then no tool, no claim left', async () => {
    const slow = slowGeoTiff(tempDir('geohub-stage-slow-'));
    const submitted = await stage<{ runId: string }>('submit', slow, '--zoom', '13', '--json');
    expect(submitted.code, submitted.stderr).toBe(0);
    second = submitted.json.runId;
    // Its tools are held stopped from their start until the cancel has returned, so the cancel
    // lands mid-way however long the CLI takes to start on a loaded machine (its four tiles were
    // once all done first). A stopped tool still takes the cancel's SIGKILL.
    const stopped = new Set<number>();
    const hold = () => {
      for (const tool of toolsOf(second)) {
        if (stopped.has(tool.pgid)) continue;
        try {
          process.kill(-tool.pgid, 'SIGSTOP');
          stopped.add(tool.pgid);
        } catch {
          // ended between the listing and the signal
        }
      }
      return stopped.size > 0;
    };
    expect(await waitUntil(hold, 90_000, 10)).toBe(true);
    const holding = setInterval(hold, 10);
    const cancelled = await stage<Run>('cancel', second, '--json').finally(() => {
      clearInterval(holding);
      for (const pgid of stopped) {
        try {
          process.kill(-pgid, 'SIGCONT');
        } catch {
          // killed by the cancel meanwhile
        }
      }
    });
    expect(cancelled.code, cancelled.stderr).toBe(0);
    // Returned once the run was recorded CANCELLED (the execution's stop, then its status event).
    expect(cancelled.json.status).toBe('CANCELLED');
    expect(
      hub.executions.get(hub.executions.list().find((e) => e.name === second)!.executionArn)?.status,
    ).toBe('ABORTED');
    expect(await waitUntil(() => toolsOf(second).length === 0, 30_000)).toBe(true);
    expect(await waitUntil(async () => (await countClaims(hub.ledger, second)) === 0, 30_000)).toBe(true);
    const run = await hub.ledger.getRun(second);
    expect(run!.counters.done).toBeLessThan(run!.counters.total);
  });

  it('re-drives it, and watches it to SUCCEEDED', async () => {
    const redriven = await stage<{ runs: { runId: string; unparked: number }[] }>(
      'redrive',
      '--run',
      second,
      '--json',
    );
    expect(redriven.code, redriven.stderr).toBe(0);
    expect(redriven.json.runs).toHaveLength(1);
    expect(redriven.json.runs[0]!.runId).toBe(second);
    expect(redriven.json.runs[0]!.unparked).toBeGreaterThan(0);
    const watched = await stage<Run>('status', second, '--watch', '--json');
    expect(watched.code, watched.stderr).toBe(0);
    expect(watched.json.status).toBe('SUCCEEDED');
    expect(watched.json.counters.done).toBe(watched.json.counters.total);
    const text = await stage('status', second);
    // Its chain: the upload's execution (aborted by the cancel), then the re-drive's.
    expect(text.stdout).toMatch(/1\. r-\S+ {2}ABORTED \(upload/);
    expect(text.stdout).toMatch(/2\. r-\S+-redrive-\d+ {2}SUCCEEDED \(redrive/);
  });

  it('verifies both runs: every marker has its object, no claim held', async () => {
    for (const runId of [first, second]) {
      const r = await stage<{ ok: boolean; markers: number; objects: number; claimsHeld: number }>(
        'verify',
        runId,
        '--json',
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.json).toMatchObject({ ok: true, claimsHeld: 0 });
      expect(r.json.markers).toBe(r.json.objects);
    }
  });

  it('gets the outputs, byte for byte, and resumes an interrupted download', async () => {
    const out = join(tempDir('geohub-stage-get-'), 'out');
    const got = await stage<{ copied: number; resumed: boolean }>('get', first, '--out', out, '--json');
    expect(got.code, got.stderr).toBe(0);
    const admin = hub.principal(ADMINISTRATOR).store;
    const bytesOf = async (key: string) => {
      const chunks: Buffer[] = [];
      for await (const c of await admin.getStream(key)) chunks.push(c as Buffer);
      return Buffer.concat(chunks);
    };
    const objects: string[] = [];
    for await (const o of admin.list(tilesPrefix(first))) objects.push(o.key);
    expect(objects.length).toBe(gdalTileCover(RGB, 8).length);
    for (const key of objects) {
      const file = join(out, key.slice(tilesPrefix(first).length));
      expect(readFileSync(file).equals(await bytesOf(key)), key).toBe(true);
    }
    for (const name of ['mosaic.vrt', 'collection.json', 'summary.json'])
      expect(findFiles(out, (n) => n === name)).toHaveLength(1);
    // Interrupted: a tile lost and a staging directory left behind (a killed download's).
    const lost = join(out, objects[0]!.slice(tilesPrefix(first).length));
    rmSync(lost);
    mkdirSync(join(out, '.geohub-staging-left'));
    const resumed = await stage<{ copied: number; resumed: boolean }>('get', first, '--out', out, '--json');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.json.resumed).toBe(true);
    // The lost tile and the metadata again (their hrefs are rewritten), not the tiles already whole.
    expect(resumed.json.copied).toBe(got.json.copied - objects.length + 1);
    expect(readFileSync(lost).equals(await bytesOf(objects[0]!))).toBe(true);
    expect(findFiles(out, (n) => n.startsWith('.geohub-staging-'))).toEqual([]);
    // Another run's download is not mixed into it.
    const other = await stage('get', second, '--out', out);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(`holds the outputs of run ${first}: pass --replace`);
  });

  it('cancels a run whose execution never started, on its record', async () => {
    const { runId } = await seedLedgerRun(hub.principal(ADMINISTRATOR).ledger, 1, 16);
    const r = await stage<Run>('cancel', runId, '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ status: 'CANCELLED', reason: 'cancelled by an operator' });
  });

  it('lists the runs and the queues', async () => {
    const r = await stage<{ runs: Run[]; queues: { deadLetters: { visible: number } } }>('status', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.runs.map((x) => x.runId)).toEqual(expect.arrayContaining([first, second]));
    expect(r.json.queues.deadLetters.visible).toBe(0);
  });

  it('says in one line what is missing: the stack, the credentials, the region', async () => {
    // The operator's policy names its own stack only: IAM refuses another before CloudFormation looks.
    const wrong = await runCli(['status', '--stage', 'nope'], awsEnv);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim()).toBe(
      "geohub: stage nope: you may not read the stack geohub-nope in us-east-1 (missing permission cloudformation:DescribeStacks on arn:aws:cloudformation:us-east-1:000000000000:stack/geohub-nope/6f1c3a2e-0000-4000-8000-000000000000): check --stage and --region; if they are right, attach the stack's operator policy to your identity",
    );
    // An identity that may read any stack is told it does not exist.
    const admin = hub.stack.envFor(ADMINISTRATOR).GEOHUB_LOCAL_ACCESS_KEY_ID!;
    const missing = await runCli(['status', '--stage', 'nope'], { ...awsEnv, AWS_ACCESS_KEY_ID: admin });
    expect(missing.stderr.trim()).toBe(
      'geohub: no stack geohub-nope in us-east-1: check --stage and --region (or AWS_REGION), or deploy it (docs/deploy.md)',
    );
    const none = {
      AWS_CONFIG_FILE: '/nonexistent',
      AWS_SHARED_CREDENTIALS_FILE: '/nonexistent',
      AWS_EC2_METADATA_DISABLED: 'true',
    };
    const noKeys = await runCli(['status', '--stage', 'local'], {
      ...awsEnv,
      ...none,
      AWS_ACCESS_KEY_ID: '',
      AWS_SECRET_ACCESS_KEY: '',
    });
    expect(noKeys.code).toBe(1);
    expect(noKeys.stderr.trim()).toMatch(/^geohub: no AWS credentials: set AWS_PROFILE or --profile/);
    const noRegion = await runCli(['status', '--stage', 'local'], {
      ...awsEnv,
      ...none,
      AWS_REGION: '',
      AWS_DEFAULT_REGION: '',
    });
    expect(noRegion.code).toBe(1);
    expect(noRegion.stderr.trim()).toBe(
      'geohub: no AWS region: pass --region, or set AWS_REGION or a profile with a region',
    );
    const both = await runCli(['status', '--stage', 'local', '--port', '4747'], awsEnv);
    expect(both.stderr.trim()).toBe('geohub: --port and --stage name two targets: choose one');
  });
});
