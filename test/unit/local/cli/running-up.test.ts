import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findRunningUp } from '../../../../local/cli/running-up.js';
import { PROOF_PATH, proofOf } from '../../../../local/server/server-proof.js';
import { tokenFile, writeUpToken } from '../../../../local/server/up-token.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A private state directory, and a server on loopback that answers the proof with `secret`. */
async function setUp(secret: string) {
  const state = mkdtempSync(join(tmpdir(), 'geohub-running-up-'));
  const env = { XDG_RUNTIME_DIR: state };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== PROOF_PATH) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ proof: proofOf(secret, url.searchParams.get('nonce') ?? '') }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  cleanups.push(() => rmSync(state, { recursive: true, force: true }));
  const write = async (token: string, pid: number, operator?: Record<string, string>) => {
    const remove = await writeUpToken(
      port,
      { url: `http://127.0.0.1:${port}`, token, pid, ...(operator ? { operator } : {}) },
      env,
    );
    cleanups.push(remove);
  };
  return { env, port, write };
}

describe('findRunningUp: the user’s own geohub up, or why not', () => {
  it('none: no file in the state directory', async () => {
    const { env, port } = await setUp('s');
    expect(await findRunningUp(port, env)).toBeUndefined();
  });

  it('found: the server answers the file’s secret, and the file has the operator’s environment', async () => {
    const { env, port, write } = await setUp('the-secret');
    await write('the-secret', process.pid, { GEOHUB_BUCKET: 'b' });
    expect(await findRunningUp(port, env)).toEqual({
      found: { port, url: `http://127.0.0.1:${port}`, pid: process.pid, operator: { GEOHUB_BUCKET: 'b' } },
    });
  });

  it('not used: another server on the port cannot prove the secret', async () => {
    const { env, port, write } = await setUp('someone-else');
    await write('the-secret', process.pid, {});
    const lookup = await findRunningUp(port, env);
    expect(lookup).toEqual({ notUsed: expect.stringContaining('cannot prove it holds its secret') });
  });

  it('not used: the file of a dead up is stale, and removed', async () => {
    const { env, port, write } = await setUp('the-secret');
    // Above Linux's largest pid_max: no process has it.
    await write('the-secret', 2 ** 22 + 1, {});
    expect(await findRunningUp(port, env)).toEqual({ notUsed: expect.stringContaining('was stale') });
    expect(existsSync(tokenFile(port, env))).toBe(false);
  });

  it('not used: an up older than this CLI (no operator environment in its file)', async () => {
    const { env, port, write } = await setUp('the-secret');
    await write('the-secret', process.pid);
    expect(await findRunningUp(port, env)).toEqual({
      notUsed: expect.stringContaining('older than this geohub'),
    });
  });
});
