import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useHostileUp } from '../support/hostile-up.js';
import { waitUntil } from '../support/wait-until.js';

const RGB = new URL('../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const ROOT = new URL('../..', import.meta.url).pathname;

const h = useHostileUp();

/** Runs a small script as `nobody`, another local user; it prints one JSON line. */
async function asNobody(script: string, ...args: string[]): Promise<unknown> {
  // Not execFileSync: a test process blocked for seconds keeps keep-alive sockets the server has
  // closed meanwhile, and its next fetch meets "other side closed".
  const { stdout } = await promisify(execFile)(
    'runuser',
    ['-u', 'nobody', '--', process.execPath, '-e', script, ...args],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return JSON.parse(stdout);
}

/** A variable of the stack's environment (its endpoints and names, as its workers get them). */
function stackEnv(name: string): string {
  const value = h.up.stackEnv[name];
  if (value === undefined) throw new Error(`no ${name} in the stack's environment`);
  return value;
}

/** DynamoDB Local's own port: Java's port property, among this up's processes. */
function javaPort(): string {
  for (const line of h.mark.live()) {
    const args = readFileSync(`/proc/${line.split(' ')[0]}/cmdline`, 'utf8').split('\0');
    const port = args.find((a) => a.startsWith('-Dgeohub.dynamodb.port='));
    if (port) return port.split('=')[1]!;
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
    const secretInput = join(h.base, 'data', 'key.tif');
    copyFileSync(RGB, secretInput);
    chmodSync(secretInput, 0o600);
    const submitted = await h.cli('submit', secretInput, '--zoom', '5');
    expect(submitted.code, submitted.stderr).toBe(0);
    const { runId } = JSON.parse(submitted.stdout) as { runId: string };
    expect(
      await waitUntil(
        async () =>
          ((await (await h.up.fetch(`/api/runs/${runId}`)).json()) as { status: string }).status ===
          'SUCCEEDED',
        120_000,
        500,
      ),
    ).toBe(true);

    // The secret's file: 0600 in a 0700 directory of the owner's.
    const tokenFile = join(h.base, 'runtime', 'geohub', `up-${h.up.port}.json`);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(h.base, 'runtime', 'geohub')).mode & 0o777).toBe(0o700);

    const world = join(h.base, 'data', 'world.tif');
    copyFileSync(RGB, world);
    chmodSync(world, 0o644);
    const attempts = (await asNobody(
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
      h.up.url,
      tokenFile,
      stackEnv('GEOHUB_ENDPOINT_S3'),
      stackEnv('GEOHUB_BUCKET'),
    )) as Record<string, unknown>;
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
        h.up.port,
      ],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, XDG_RUNTIME_DIR: join(h.base, 'runtime') } },
    );
    expect(nobodyCli).toMatch(/^geohub: no geohub up of yours answers on 127\.0\.0\.1:\d+.*\nexit=1\n$/);
    // The run is untouched: still SUCCEEDED, nothing started since.
    const runs = (await (await h.up.fetch('/api/runs')).json()) as { runId: string; status: string }[];
    expect(runs.map((r) => [r.runId, r.status])).toContainEqual([runId, 'SUCCEEDED']);
  });

  it('another local user can neither read nor change the ledger in DynamoDB Local, with any key', async () => {
    const runs = (await (await h.up.fetch('/api/runs')).json()) as { runId: string; status: string }[];
    const done = runs.find((r) => r.status === 'SUCCEEDED')!;
    const table = stackEnv('GEOHUB_TABLE');
    // Both ways in: the AWS-behaviour layer the workers use, and Java's own port.
    const endpoints = [stackEnv('GEOHUB_ENDPOINT_DYNAMODB'), `http://127.0.0.1:${javaPort()}`];
    const keys = ['AKIAIOSFODNN7EXAMPLE', 'local', `GH${'0'.repeat(24)}`];
    const asOther = (await asNobody(LEDGER_PROBE, table, done.runId, keys.join(','), ...endpoints)) as Record<
      string,
      unknown
    >;
    // The AWS-behaviour layer refuses another key from the headers (issue 34 #2); Java, which
    // accepts any, shows it an empty database of its own.
    const denied = { tables: 'AccessDenied', get: 'AccessDenied', update: 'AccessDenied' };
    const empty = { tables: [], get: 'ResourceNotFoundException', update: 'ResourceNotFoundException' };
    expect(asOther).toEqual(
      Object.fromEntries(
        endpoints.flatMap((e, i) => keys.map((k) => [`${e} ${k}`, i === 0 ? denied : empty])),
      ),
    );
    // The same probe with the stack's own key id does reach the ledger (the probe can see it)…
    const ownKey = stackEnv('GEOHUB_LOCAL_ACCESS_KEY_ID');
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
    const after = (await (await h.up.fetch(`/api/runs/${done.runId}`)).json()) as { status: string };
    expect(after.status).toBe('SUCCEEDED');
  });

  it('the page gets its session once by URL, then as a strict same-site HttpOnly cookie', async () => {
    const login = await fetch(h.up.pageUrl, { redirect: 'manual' });
    expect(login.status).toBe(303);
    expect(login.headers.get('location')).toBe('/');
    const cookie = login.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(
      new RegExp(`^geohub-up-${h.up.port}=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=/$`),
    );
    const withCookie = await fetch(`${h.up.url}/api/runs`, { headers: { cookie: cookie.split(';')[0]! } });
    expect(withCookie.status).toBe(200);
    expect((await fetch(`${h.up.url}/?login=wrong`, { redirect: 'manual' })).status).toBe(401);
  });

  it('the server opens no path it is sent: the old path route is gone', async () => {
    const r = await h.up.fetch('/api/runs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/etc/shadow' }),
    });
    expect(r.status).toBe(404);
  });
});
