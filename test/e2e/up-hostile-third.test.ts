import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { floodRequest } from '../support/flood-request.js';
import { useHostileUp } from '../support/hostile-up.js';
import { listenersOf, listeningSockets, residentBytes } from '../support/listening-sockets.js';

const h = useHostileUp();
const MB = 1024 * 1024;
const pids = () => h.mark.live().map((line) => Number(line.split(' ')[0]));
const portOf = (endpoint: string) => Number(new URL(endpoint).port);

describe("the page's cookie is worth nothing elsewhere (issue 34 #1)", () => {
  it('is a session of its own, not the token, accepted only from its own page', async () => {
    expect(h.up.pageUrl).not.toContain(h.up.token);
    const login = await fetch(h.up.pageUrl, { redirect: 'manual' });
    expect(login.status).toBe(303);
    const [name, value] = (login.headers.get('set-cookie') ?? '').split(';')[0]!.split('=') as [
      string,
      string,
    ];
    expect(name).toBe(`geohub-up-${h.up.port}`);
    // The bearer token cannot be read from the cookie: neither is the other.
    expect(value).not.toBe(h.up.token);
    const api = (path: string, headers: Record<string, string>, init: RequestInit = {}) =>
      fetch(`${h.up.url}${path}`, { ...init, headers }).then((r) => r.status);
    expect(await api('/api/runs', { authorization: `Bearer ${value}` })).toBe(401);
    expect(await api('/api/runs', { cookie: `${name}=${h.up.token}` })).toBe(401);

    const cookie = { cookie: `${name}=${value}` };
    const json = { ...cookie, 'content-type': 'application/json' };
    const post = { method: 'POST', body: '{}' };
    // The owner's page: a typed URL, its own fetches.
    expect(await api('/api/runs', { ...cookie, 'sec-fetch-site': 'none' })).toBe(200);
    expect(await api('/api/runs', { ...cookie, 'sec-fetch-site': 'same-origin' })).toBe(200);
    expect(
      await api('/api/redrive', { ...json, origin: h.up.url, 'sec-fetch-site': 'same-origin' }, post),
    ).toBe(200);
    // The cookie replayed from another origin (a server on another port of 127.0.0.1 got it).
    const foreign = 'http://127.0.0.1:9999';
    expect(await api('/api/redrive', { ...json, origin: foreign }, post)).toBe(403);
    expect(await api('/api/runs', { ...cookie, origin: foreign })).toBe(403);
    expect(await api('/api/runs', { ...cookie, 'sec-fetch-site': 'same-site' })).toBe(403);
    expect(await api('/api/runs', { ...cookie, 'sec-fetch-site': 'cross-site' })).toBe(403);
    // A state change says where it comes from, whatever its content type.
    expect(await api('/api/redrive', json, post)).toBe(403);
    expect(
      await api(
        '/api/uploads?name=x.tif',
        { ...cookie, 'content-type': 'application/octet-stream' },
        {
          method: 'POST',
          body: 'x',
        },
      ),
    ).toBe(403);
  });
});

describe("the stand-ins' front door (issue 34 #2, and: every stand-in on 127.0.0.1)", () => {
  it('every socket the up process tree listens on is on 127.0.0.1', () => {
    const sockets = listeningSockets(pids());
    // The API, three proxies, s3rver, the SQS stand-in and DynamoDB Local at least.
    expect(sockets.length).toBeGreaterThanOrEqual(7);
    expect(sockets.filter((s) => !s.startsWith('127.0.0.1:'))).toEqual([]);
  });

  it("a 1.5 GB unauthenticated body to each stand-in port leaves up's memory within 50 MB of idle", async () => {
    const upPid = h.up.child.pid!;
    const api = Number(h.up.port);
    const proxies = ['DYNAMODB', 'S3', 'SQS'].map((s) => portOf(h.up.stackEnv[`GEOHUB_ENDPOINT_${s}`]!));
    const owners = new Map([...listenersOf(pids())].map(([s, pid]) => [Number(s.split(':').at(-1)), pid]));
    const others = [...owners.keys()].filter((p) => p !== api && !proxies.includes(p));
    const label = (port: number) =>
      proxies.includes(port)
        ? `proxy ${['dynamodb', 's3', 'sqs'][proxies.indexOf(port)]}`
        : readFileSync(`/proc/${owners.get(port)}/cmdline`, 'utf8').includes('java')
          ? 'DynamoDB Local'
          : `stand-in pid ${owners.get(port)}`;
    expect(others.length).toBeGreaterThanOrEqual(3); // s3rver, SQS, DynamoDB Local
    const samples = Array.from({ length: 10 }, () => residentBytes(upPid));
    const idle = samples.sort((a, b) => a - b)[5]!;
    const seen: Record<string, { written: number; peakMb: number }> = {};
    for (const port of [...proxies, ...others]) {
      let peak = 0;
      const sampler = setInterval(() => {
        peak = Math.max(peak, residentBytes(upPid));
      }, 20);
      const flood = await floodRequest(port, {
        path: `/${h.up.stackEnv.GEOHUB_BUCKET}/flood`,
        length: 1.5e9,
        send: 1.5e9 - 1,
      }).finally(() => clearInterval(sampler));
      peak = Math.max(peak, residentBytes(upPid));
      seen[`${label(port)} :${port}`] = { written: flood.written, peakMb: Math.round((peak - idle) / MB) };
      expect(peak - idle, `port ${port}: ${JSON.stringify(seen)}`).toBeLessThan(50 * MB);
    }
    console.log(`issue 34 #2: up idle ${Math.round(idle / MB)} MB; per port: ${JSON.stringify(seen)}`);
    // The proxies say no from the headers alone (a flood's answer may be lost to the reset).
    for (const port of proxies) {
      const asked = await floodRequest(port, { length: 1.5e9, send: 0 });
      expect(asked.status).toMatch(/^HTTP\/1\.1 403 /);
    }
  }, 600_000);

  it("a body past the cap is 413 before it is read, even with the stack's own key", async () => {
    const key = h.up.stackEnv.GEOHUB_LOCAL_ACCESS_KEY_ID!;
    const authorization = `AWS4-HMAC-SHA256 Credential=${key}/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=00`;
    const over = { DYNAMODB: 17 * MB + 1, SQS: 2 * MB + 1, S3: 5 * 1024 * MB + 1 };
    for (const [service, length] of Object.entries(over)) {
      const port = portOf(h.up.stackEnv[`GEOHUB_ENDPOINT_${service}`]!);
      const r = await floodRequest(port, { headers: { authorization }, length, send: 0 });
      expect(r.status, service).toMatch(/^HTTP\/1\.1 413 /);
    }
  });
});

describe("the owner's uploads (issue 34)", () => {
  const upload = (name: string, headers: Record<string, string> = {}, body = 'x') =>
    new Promise<{ status: number; error: string }>((resolve, reject) => {
      const req = request(
        `${h.up.url}/api/uploads?${new URLSearchParams({ name })}`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${h.up.token}`,
            'content-type': 'application/octet-stream',
            'content-length': String(body.length),
            ...headers,
          },
        },
        async (res) => {
          let text = '';
          for await (const chunk of res) text += chunk;
          resolve({ status: res.statusCode ?? 0, error: (JSON.parse(text) as { error: string }).error });
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  it('refuses a name that is not a plain file name, in one clear line', async () => {
    const cases: [string, string][] = [
      ['..', 'name: a file name, not . or ..'],
      ['.', 'name: a file name, not . or ..'],
      ['a\r\nb.tif', 'name: a file name without control characters'],
      ['a\u0007.tif', 'name: a file name without control characters'],
      ['a/b.tif', 'name: a file name, not a path'],
      ['..\\b.tif', 'name: a file name, not a path'],
      [`${'x'.repeat(252)}.tif`, 'name: a file name of at most 255 bytes'],
    ];
    for (const [name, error] of cases)
      expect(await upload(name), JSON.stringify(name)).toEqual({ status: 400, error });
    // The CLI says so before it sends a byte.
    const odd = join(h.base, 'data', 'a\nb.tif');
    writeFileSync(odd, 'not a raster');
    const r = await h.cli('submit', odd);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `geohub: cannot send ${JSON.stringify(odd)}: its name must be a file name without control characters\n`,
    );
  });

  it('has a stated limit (8 GB, --max-upload-gb raises it): a larger file is 413 before it is read', async () => {
    const r = await upload('big.tif', { 'content-length': String(9e9) }, '');
    expect(r).toEqual({
      status: 413,
      error:
        "the file is 9.0 GB, above this geohub up's limit of 8.0 GB (start it with --max-upload-gb to raise it)",
    });
    const help = await runCli(['up', '--help']);
    expect(help.stdout).toMatch(/--max-upload-gb <n> +the largest file geohub submit may send, in GB/);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('(default: 8)');
  });
});
