import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkInputFile } from '../../../local/cli/input-file.js';
import { uploadToUp } from '../../../local/cli/upload-to-up.js';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import { type ApiServer, startApiServer } from '../../../local/server/api-server.js';
import { tokenGate } from '../../../local/server/auth.js';
import { hubRunControl } from '../../../local/server/hub-run-control.js';
import { UPLOAD_LIMITS } from '../../../local/server/receive-upload.js';
import { newUpSecret, writeUpToken } from '../../../local/server/up-token.js';
import { startTestHub } from '../../support/hub.js';
import { fileTempDir } from '../../support/temp-dir.js';
import { waitUntil } from '../../support/wait-until.js';

const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const STORE_MS = 3_000;
const IDLE_MS = 1_000;

let hub: LocalHub;
const env = { XDG_RUNTIME_DIR: fileTempDir('geohub-runtime-') };
/** Where the server keeps its copy of an upload while it stores it (its TMPDIR). */
const uploads = fileTempDir('geohub-uploads-');
const tmpBefore = process.env.TMPDIR;
beforeAll(async () => {
  hub = await startTestHub({ workers: 1 });
  process.env.TMPDIR = uploads;
});
afterAll(async () => {
  if (tmpBefore === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = tmpBefore;
  await hub?.stop();
});

/**
 * `geohub up` whose bucket takes STORE_MS to store a file (as a multi-GB file takes minutes),
 * with the client's silence limit lowered to IDLE_MS (120 s; Node's fetch waited 300 s for
 * headers, less than the 403 s a 4.3 GiB file takes to store).
 */
async function slowUp(progressEveryMs: number): Promise<{ api: ApiServer; port: number }> {
  let storing: Promise<unknown> = Promise.resolve();
  const slowHub: LocalHub = {
    ...hub,
    upload: (file, options) => {
      const stored = new Promise((r) => setTimeout(r, STORE_MS)).then(() => hub.upload(file, options));
      storing = stored;
      return stored;
    },
  };
  // The real gate: the client checks the server's proof of the token before it sends the file.
  const secrets = { token: newUpSecret(), session: newUpSecret() };
  const api = await startApiServer(
    hubRunControl(slowHub, { ...UPLOAD_LIMITS, bodyIdleMs: 10_000, progressEveryMs }),
    0,
    undefined,
    (p) => tokenGate(secrets, p),
  );
  const port = Number(new URL(api.url).port);
  const remove = await writeUpToken(port, { url: api.url, token: secrets.token, pid: process.pid }, env);
  // The server goes on storing after a client gave up; its copy goes once it is done.
  const close = async () => {
    await remove();
    await storing.catch(() => {});
    expect(await waitUntil(() => readdirSync(uploads).length === 0, 10_000)).toBe(true);
    await api.close();
  };
  return { api: { ...api, close }, port };
}

describe('a submit whose file takes longer to store than the client waits in silence (issue 20 #5)', () => {
  it('gets progress lines while the file is stored, then its run', async () => {
    const { api, port } = await slowUp(200);
    try {
      const stored: number[] = [];
      const input = await checkInputFile(RGB);
      const r = await uploadToUp<{ outcome: string; runId: string }>(
        port,
        '/api/uploads?name=slow.tif',
        input,
        {
          env,
          idleMs: IDLE_MS,
          onStored: (n) => stored.push(n),
        },
      );
      expect(r.outcome).toBe('started');
      // The run the upload started is recorded (by its execution, shortly after).
      expect(await waitUntil(async () => (await hub.ledger.getRun(r.runId)) !== undefined, 30_000)).toBe(
        true,
      );
      // One line at once, then one per 200 ms over the 3 s: the connection never fell silent.
      expect(stored.length).toBeGreaterThanOrEqual(STORE_MS / 200 / 2);
    } finally {
      await api.close();
    }
  });

  it('without those lines the same wait is cut off (the answer only at the end, as before)', async () => {
    const { api, port } = await slowUp(60_000);
    try {
      const input = await checkInputFile(RGB);
      await expect(
        uploadToUp(port, '/api/uploads?name=silent.tif', input, { env, idleMs: IDLE_MS }),
      ).rejects.toThrow(
        `the request to geohub up on 127.0.0.1:${port} failed: geohub up sent nothing for 1 s`,
      );
    } finally {
      await api.close();
    }
  });

  it('a client stopped while the file is stored (Ctrl-C) stops the store: no object, no sidecar, no run', async () => {
    const { api, port } = await slowUp(200);
    const keysOf = async () => {
      const keys: string[] = [];
      for await (const o of hub.store.list('incoming/')) if (o.key.includes('/left.tif')) keys.push(o.key);
      return keys;
    };
    try {
      const input = await checkInputFile(RGB);
      const stop = new AbortController();
      const sent = uploadToUp(port, '/api/uploads?name=left.tif&zoom=5', input, {
        env,
        signal: stop.signal,
        // The first progress line: the body is in and the server is storing it.
        onStored: () => stop.abort(),
      });
      await expect(sent).rejects.toMatchObject({ name: 'CliError', exitCode: 130 });
    } finally {
      // Waits for the server's store to end, then for its copy of the file to go.
      await api.close();
    }
    // Not stored, and its sidecar (written first, for the run's job) removed with it.
    expect(await keysOf()).toEqual([]);
    expect((await hub.ledger.listRuns(100)).filter((r) => r.source.key.endsWith('/left.tif'))).toEqual([]);
  });

  it('a client stopped before it began sending sends nothing', async () => {
    const { api, port } = await slowUp(200);
    try {
      const input = await checkInputFile(RGB);
      const sent = uploadToUp(port, '/api/uploads?name=early.tif', input, {
        env,
        signal: AbortSignal.abort(),
      });
      await expect(sent).rejects.toMatchObject({ name: 'CliError', exitCode: 130 });
    } finally {
      await api.close();
    }
    for await (const o of hub.store.list('incoming/')) expect(o.key).not.toContain('/early.tif');
  });
});
