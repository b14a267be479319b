import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processTable } from '../../lib/process/process-table.js';
import { runCli } from '../support/cli.js';
import { processMark } from '../support/marked-processes.js';
import { startUp, type UpSession } from '../support/up-session.js';
import { waitUntil } from '../support/wait-until.js';

const RGB = new URL('../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const ROOT = new URL('../..', import.meta.url).pathname;

let base = '';
let up: UpSession;
let mark: ReturnType<typeof processMark>;
let env: Record<string, string>;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'geohub-hostile-'));
  chmodSync(base, 0o755); // `nobody` may reach the world-readable files the tests put here
  for (const d of ['tmp', 'runtime', 'data']) mkdirSync(join(base, d), { mode: 0o755 });
  chmodSync(join(base, 'runtime'), 0o700);
  mark = processMark();
  env = { ...mark.env, TMPDIR: join(base, 'tmp'), XDG_RUNTIME_DIR: join(base, 'runtime') };
  up = await startUp(env);
});

afterAll(async () => {
  try {
    if (up && up.child.exitCode === null) up.child.kill('SIGINT');
    await up?.done;
    expect(mark.live()).toEqual([]);
    expect(readdirSync(join(base, 'tmp'))).toEqual([]);
    expect(readdirSync(join(base, 'runtime', 'geohub'))).toEqual([]); // the secret goes with it
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

const cli = (...args: string[]) => runCli([...args, '--port', up.port, '--json'], env);

/** Runs a small script as `nobody`, another local user; it prints one JSON line. */
function asNobody(script: string, ...args: string[]): unknown {
  const out = execFileSync('runuser', ['-u', 'nobody', '--', process.execPath, '-e', script, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

/** An environment variable of one of this up's workers (the stand-ins' endpoints live there). */
function workerEnv(name: string): string {
  for (const line of mark.live()) {
    const pid = Number(line.split(' ')[0]);
    if (!processTable().some((p) => p.pid === pid && p.command.startsWith('geohub-worker'))) continue;
    const entry = readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .find((e) => e.startsWith(`${name}=`));
    if (entry) return entry.slice(name.length + 1);
  }
  throw new Error(`no worker with ${name}`);
}

/** DynamoDB Local's own port: Java's `-port` argument, among this up's processes. */
function javaPort(): string {
  for (const line of mark.live()) {
    const args = readFileSync(`/proc/${line.split(' ')[0]}/cmdline`, 'utf8').split('\0');
    if (args.includes('-inMemory')) return args[args.indexOf('-port') + 1]!;
  }
  throw new Error("no DynamoDB Local among this up's processes");
}

/**
 * Lists the tables, reads the run's record and updates it, on each endpoint with each key id
 * (DynamoDB Local reads only the key id of a SigV4 header); prints what each answered. The
 * update is refused on an existing item by its condition: the owner's probe changes nothing.
 */
const LEDGER_PROBE = `(async () => {
  const [table, runId, keys, ...endpoints] = process.argv.slice(1);
  const key = { PK: { S: 'RUN#' + runId }, SK: { S: 'META' } };
  const call = async (endpoint, keyId, target, body) => {
    const r = await fetch(endpoint, { method: 'POST', body: JSON.stringify(body), headers: {
      'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.' + target,
      authorization: 'AWS4-HMAC-SHA256 Credential=' + keyId + '/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00' } });
    const j = await r.json();
    return r.ok ? j : { error: String(j.__type).split('#').pop() };
  };
  const out = {};
  for (const e of endpoints) for (const k of keys.split(',')) {
    const list = await call(e, k, 'ListTables', {});
    const get = await call(e, k, 'GetItem', { TableName: table, Key: key });
    const update = await call(e, k, 'UpdateItem', { TableName: table, Key: key,
      UpdateExpression: 'SET #s = :c', ConditionExpression: 'attribute_not_exists(PK)',
      ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':c': { S: 'CANCELLED' } } });
    out[e + ' ' + k] = { tables: list.TableNames ?? list.error, get: get.error ?? (get.Item ? 'ok' : 'none'), update: update.error ?? 'ok' };
  }
  console.log(JSON.stringify(out));
})()`;

describe('geohub up serves only the user who started it (issue 20 #1)', () => {
  it('another local user can neither use the API nor read inputs or outputs from the S3 stand-in', async () => {
    // The owner's input: a key only its owner may read.
    const secretInput = join(base, 'data', 'key.tif');
    copyFileSync(RGB, secretInput);
    chmodSync(secretInput, 0o600);
    const submitted = await cli('submit', secretInput, '--zoom', '5');
    expect(submitted.code, submitted.stderr).toBe(0);
    const { runId } = JSON.parse(submitted.stdout) as { runId: string };
    expect(
      await waitUntil(
        async () =>
          ((await (await up.fetch(`/api/runs/${runId}`)).json()) as { status: string }).status ===
          'SUCCEEDED',
        120_000,
        500,
      ),
    ).toBe(true);

    // The secret's file: 0600 in a 0700 directory of the owner's.
    const tokenFile = join(base, 'runtime', 'geohub', `up-${up.port}.json`);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(base, 'runtime', 'geohub')).mode & 0o777).toBe(0o700);

    const world = join(base, 'data', 'world.tif');
    copyFileSync(RGB, world);
    chmodSync(world, 0o644);
    const attempts = asNobody(
      `(async () => {
        const [url, tokenFile, s3, bucket] = process.argv.slice(1);
        const hit = async (full, init) => (await fetch(full, init)).status;
        const status = (path, init) => hit(url + path, init);
        const json = { 'content-type': 'application/json' };
        const out = {
          list: await status('/api/runs'),
          page: await status('/'),
          asset: await status('/app.js'),
          submitPath: await status('/api/runs', { method: 'POST', headers: json, body: JSON.stringify({ path: '/etc/shadow' }) }),
          upload: await status('/api/uploads?name=x.tif', { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: 'x' }),
          cancel: await status('/api/runs/${runId}/cancel', { method: 'POST', headers: json, body: '{}' }),
          redrive: await status('/api/redrive', { method: 'POST', headers: json, body: '{}' }),
          guessedToken: await status('/api/runs', { headers: { authorization: 'Bearer guess' } }),
          readToken: await require('fs').promises.readFile(tokenFile).then(() => 'read', (e) => e.code),
          s3Anonymous: await hit(s3 + '/', {}),
          s3Listing: await hit(s3 + '/' + bucket + '?list-type=2', {}),
          s3DefaultKey: await hit(s3 + '/' + bucket + '?list-type=2', { headers: { authorization: 'AWS4-HMAC-SHA256 Credential=S3RVER/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=00' } }),
        };
        console.log(JSON.stringify(out));
      })()`,
      up.url,
      tokenFile,
      workerEnv('GEOHUB_ENDPOINT_S3'),
      workerEnv('GEOHUB_BUCKET'),
    ) as Record<string, unknown>;
    expect(attempts).toEqual({
      list: 401,
      page: 401,
      asset: 401,
      submitPath: 401,
      upload: 401,
      cancel: 401,
      redrive: 401,
      guessedToken: 401,
      readToken: 'EACCES',
      s3Anonymous: 403,
      s3Listing: 403,
      s3DefaultKey: 403,
    });
    // Nor through the CLI as that user: it has no secret to send.
    const nobodyCli = execFileSync(
      'runuser',
      [
        '-u',
        'nobody',
        '--',
        'sh',
        '-c',
        'node bin/geohub.js submit "$0" --port "$1" 2>&1; echo "exit=$?"',
        world,
        up.port,
      ],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, XDG_RUNTIME_DIR: join(base, 'runtime') } },
    );
    expect(nobodyCli).toMatch(/^geohub: no geohub up of yours answers on 127\.0\.0\.1:\d+.*\nexit=1\n$/);
    // The run is untouched: still SUCCEEDED, nothing started since.
    const runs = (await (await up.fetch('/api/runs')).json()) as { runId: string; status: string }[];
    expect(runs.map((r) => [r.runId, r.status])).toContainEqual([runId, 'SUCCEEDED']);
  });

  it('another local user can neither read nor change the ledger in DynamoDB Local, with any key', async () => {
    const runs = (await (await up.fetch('/api/runs')).json()) as { runId: string; status: string }[];
    const done = runs.find((r) => r.status === 'SUCCEEDED')!;
    const table = workerEnv('GEOHUB_TABLE');
    // Both ways in: the AWS-behaviour layer the workers use, and Java's own port.
    const endpoints = [workerEnv('GEOHUB_ENDPOINT_DYNAMODB'), `http://127.0.0.1:${javaPort()}`];
    const keys = ['AKIAIOSFODNN7EXAMPLE', 'local', `GH${'0'.repeat(24)}`];
    const asOther = asNobody(LEDGER_PROBE, table, done.runId, keys.join(','), ...endpoints) as Record<
      string,
      unknown
    >;
    const refused = { tables: [], get: 'ResourceNotFoundException', update: 'ResourceNotFoundException' };
    expect(asOther).toEqual(
      Object.fromEntries(endpoints.flatMap((e) => keys.map((k) => [`${e} ${k}`, refused]))),
    );
    // The same probe with the stack's own key id does reach the ledger (the probe can see it)…
    const ownKey = workerEnv('GEOHUB_LOCAL_ACCESS_KEY_ID');
    const asOwner = JSON.parse(
      execFileSync(process.execPath, ['-e', LEDGER_PROBE, table, done.runId, ownKey, endpoints[1]!], {
        encoding: 'utf8',
      }),
    ) as Record<string, { tables: string[]; get: string }>;
    expect(asOwner[`${endpoints[1]} ${ownKey}`]).toEqual({
      tables: [table],
      get: 'ok',
      update: 'ConditionalCheckFailedException',
    });
    // …and the run is as it was.
    const after = (await (await up.fetch(`/api/runs/${done.runId}`)).json()) as { status: string };
    expect(after.status).toBe('SUCCEEDED');
  });

  it('the page gets the secret once by URL, then as a strict same-site HttpOnly cookie', async () => {
    const login = await fetch(up.pageUrl, { redirect: 'manual' });
    expect(login.status).toBe(303);
    expect(login.headers.get('location')).toBe('/');
    const cookie = login.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(
      new RegExp(`^geohub-up-${up.port}=${up.token}; HttpOnly; SameSite=Strict; Path=/$`),
    );
    const withCookie = await fetch(`${up.url}/api/runs`, { headers: { cookie: cookie.split(';')[0]! } });
    expect(withCookie.status).toBe(200);
    expect((await fetch(`${up.url}/?token=wrong`, { redirect: 'manual' })).status).toBe(401);
  });

  it('the server opens no path it is sent: the old path route is gone', async () => {
    const r = await up.fetch('/api/runs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/etc/shadow' }),
    });
    expect(r.status).toBe(404);
  });
});

describe('geohub up under careless use (issue 20)', () => {
  it('#2 #6 a directory or a FIFO given to submit is one clear line, and up keeps answering', async () => {
    const dir = join(base, 'data');
    const fifo = join(base, 'data', 'pipe.tif');
    execFileSync('mkfifo', [fifo]);
    const d = await cli('submit', dir);
    expect(d.code).toBe(1);
    expect(d.stderr.trim()).toBe(`geohub: cannot read ${dir}: it is a directory, not a regular file`);
    for (let i = 0; i < 5; i += 1) {
      const f = await cli('submit', fifo);
      expect(f.stderr.trim()).toBe(
        `geohub: cannot read ${fifo}: it is a FIFO (named pipe), not a regular file`,
      );
    }
    rmSync(fifo);
    expect((await up.fetch('/api/runs')).status).toBe(200);
    expect((await up.fetch('/')).status).toBe(200);
  });

  it('#5 a sparse file given to submit is refused before a byte is sent, as by run', async () => {
    const sparse = join(base, 'data', 'sparse.tif');
    writeFileSync(sparse, '');
    truncateSync(sparse, 50 * 1024 ** 3);
    const before = ((await (await up.fetch('/api/runs')).json()) as unknown[]).length;
    try {
      const r = await cli('submit', sparse);
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(
        `geohub: ${sparse} is a sparse file (50.0 GB, 0.0 GB of it on disk): the local stack would copy all 50.0 GB; write it out in full (e.g. gdal_translate) or run it on AWS`,
      );
    } finally {
      rmSync(sparse);
    }
    // Nothing reached the server: no upload directory, no run.
    expect(readdirSync(join(base, 'tmp')).filter((e) => e.startsWith('geohub-up-upload-'))).toEqual([]);
    expect(((await (await up.fetch('/api/runs')).json()) as unknown[]).length).toBe(before);
  });

  it('#4 twenty parallel submits of one file all get their own run', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => cli('submit', RGB, '--zoom', '4')));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const runs = results.map((r) => JSON.parse(r.stdout) as { outcome: string; runId: string });
    expect(runs.every((r) => r.outcome === 'started')).toBe(true);
    expect(new Set(runs.map((r) => r.runId)).size).toBe(20);
  });

  it('#14 verify of an unknown run says "no such run"; another stack\'s .part is not this run\'s', async () => {
    const unknown = await cli('verify', 'r-00000000000000000000');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('geohub: no such run: r-00000000000000000000');
    // A leftover of another stack, in the same temp dir, named as a pool's scratch.
    const other = join(base, 'tmp', 'geohub-pool-9-other');
    mkdirSync(other);
    writeFileSync(join(other, 'x.tif.part'), 'not ours');
    try {
      const runs = (await (await up.fetch('/api/runs')).json()) as { runId: string; status: string }[];
      const done = runs.find((r) => r.status === 'SUCCEEDED')!;
      const verify = await cli('verify', done.runId);
      expect(JSON.parse(verify.stdout)).toMatchObject({ ok: true, parts: [] });
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('#15 a 5,000-character run id is refused before any lookup', async () => {
    const id = 'a'.repeat(5_000);
    const r = await cli('status', id);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('geohub: not a run id: a run id is 8 to 64 of [0-9a-z-]');
    for (const path of [
      `/api/runs/${id}`,
      `/api/runs/${id}/tiles`,
      `/api/runs/${id}/verify`,
      `/api/runs/${id}/tile-states`,
    ]) {
      const res = await up.fetch(path);
      expect(res.status, path).toBe(400);
    }
  });

  it('Ctrl-C with runs in flight: up cancels them and exits, nothing it started left waiting out a timeout', async () => {
    // Its Lambda tasks are mid-invocation when the pool stops; each such invocation once kept a
    // timer of up to 15 minutes (the function's timeout) and up alive after "stopped" (CI, run 21).
    const submits = await Promise.all([1, 2, 3].map(() => cli('submit', RGB, '--zoom', '11')));
    for (const r of submits) expect(r.code, r.stderr).toBe(0);
    const ids = submits.map((r) => (JSON.parse(r.stdout) as { runId: string }).runId);
    const running = async () => {
      const runs = (await (await up.fetch('/api/runs')).json()) as { runId: string; status: string }[];
      return runs.some((r) => ids.includes(r.runId) && r.status === 'RUNNING');
    };
    expect(await waitUntil(running, 60_000, 200)).toBe(true);
    up.child.kill('SIGINT');
    const bound = new Promise<'still running'>((resolve) =>
      setTimeout(() => resolve('still running'), 60_000).unref(),
    );
    const outcome = await Promise.race([up.done, bound]);
    expect(outcome).not.toBe('still running');
    const r = outcome as Awaited<typeof up.done>;
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/geohub up: stopped; cancelled .*\(CANCELLED\)/);
    expect(mark.live()).toEqual([]);
  });
});
