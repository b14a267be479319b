import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tilesPrefix } from '../../../lib/model/ids.js';
import { callApi } from '../../../local/cli/api-client.js';
import { copyFromUp } from '../../../local/cli/copy-from-up.js';
import { checkInputFile } from '../../../local/cli/input-file.js';
import { prepareOutputDir } from '../../../local/cli/output-dir.js';
import { findRunningUp } from '../../../local/cli/running-up.js';
import { uploadToUp } from '../../../local/cli/upload-to-up.js';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import { OPERATOR } from '../../../local/iam/local-iam.js';
import { type ApiServer, startApiServer } from '../../../local/server/api-server.js';
import { tokenGate } from '../../../local/server/auth.js';
import { hubRunControl } from '../../../local/server/hub-run-control.js';
import { UPLOAD_LIMITS } from '../../../local/server/receive-upload.js';
import { newUpSecret, writeUpToken } from '../../../local/server/up-token.js';
import { startTestHub } from '../../support/hub.js';
import { fileTempDir, tempDir } from '../../support/temp-dir.js';
import { waitUntil } from '../../support/wait-until.js';

const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const env = { XDG_RUNTIME_DIR: fileTempDir('geohub-runtime-') };
/** The up's mirror root, as `geohub up` makes it (serve-up.ts). */
const root = fileTempDir('geohub-up-mirror-');

let hub: LocalHub;
let api: ApiServer;
let port: number;
let removeToken = async () => {};
beforeAll(async () => {
  hub = await startTestHub({
    workerEnv: { GEOHUB_OUTPUT_MIRROR_DIR: root, GEOHUB_OUTPUT_MIRROR_PER_RUN: '1' },
  });
  const secrets = { token: newUpSecret(), session: newUpSecret() };
  api = await startApiServer(hubRunControl(hub, { ...UPLOAD_LIMITS, mirrorRoot: root }), 0, undefined, (p) =>
    tokenGate(secrets, p),
  );
  port = Number(new URL(api.url).port);
  removeToken = await writeUpToken(
    port,
    {
      url: api.url,
      token: secrets.token,
      pid: process.pid,
      operator: hub.stack.envFor(OPERATOR),
      mirror: root,
    },
    env,
  );
});
afterAll(async () => {
  await removeToken();
  await api?.close();
  await hub?.stop();
});

async function submit(query: string): Promise<string> {
  const input = await checkInputFile(RGB);
  const r = await uploadToUp<{ outcome: string; runId: string }>(port, `/api/uploads?${query}`, input, {
    env,
  });
  expect(r.outcome).toBe('started');
  const ended = await waitUntil(
    async () => (await hub.ledger.getRun(r.runId))?.status === 'SUCCEEDED',
    120_000,
  );
  expect(ended).toBe(true);
  return r.runId;
}

describe("geohub up mirrors the tiles of a `geohub run`'s run only, for that run's copy", () => {
  it('a run sent with mirror=1 gets its tiles in <mirror>/<run>; the copy takes them and removes it; other runs leave nothing', async () => {
    // The bugs this catches: the up mirroring every run (the page's and submit's too, which no
    // one copies: the mirror would grow with every tile the up makes), or the copy leaving the
    // run's mirror behind.
    const copied = await submit('name=copied.tif&job=%7B%22zoom%22%3A9%7D&mirror=1');
    const other = await submit('name=other.tif&job=%7B%22zoom%22%3A9%7D');
    expect(readdirSync(root)).toEqual([copied]);
    expect(existsSync(join(root, other))).toBe(false);
    const run = await hub.ledger.getRun(copied);
    const mirrored = readdirSync(join(root, copied));
    // Made while the split ran, the directory is there for the workers' first tiles.
    expect(mirrored.length).toBe(run!.counters.total);
    for (const name of mirrored) expect(decodeURIComponent(name).startsWith(tilesPrefix(copied))).toBe(true);

    // `geohub run` finds the mirror through the up's token file, and copies from it.
    const lookup = await findRunningUp(port, env);
    const up = lookup && 'found' in lookup ? lookup.found : undefined;
    expect(up?.mirror).toBe(root);
    const out = await prepareOutputDir(join(tempDir('geohub-up-mirror-out-'), 'out'), false);
    await copyFromUp(up!.operator, copied, out, { mirrorRoot: up!.mirror });
    expect(existsSync(join(root, copied))).toBe(false);
    // What --out holds is the objects (the mirror is used only where it is the object).
    let tiles = 0;
    for await (const object of hub.store.list(tilesPrefix(copied))) {
      const local = join(out.path, object.key.slice(tilesPrefix(copied).length));
      const bytes = readFileSync(local);
      expect(bytes.length).toBe(object.bytes);
      tiles += 1;
    }
    expect(tiles).toBe(run!.counters.total);
    expect(readdirSync(root)).toEqual([]);
  }, 300_000);
});

describe('a run followed on the up: its end is answered at once', () => {
  it('a status request made while the execution runs, with ?wait=, comes back with the run ended', async () => {
    // The bug this catches: `geohub run` on an up learning of the end a poll later (the request
    // answered at once, the next one after a pause), a whole poll on a one-second job.
    const input = await checkInputFile(RGB);
    const r = await uploadToUp<{ outcome: string; runId: string }>(
      port,
      '/api/uploads?name=waited.tif',
      input,
      {
        env,
      },
    );
    expect(r.outcome).toBe('started');
    const path = `/api/runs/${r.runId}?wait=1000`;
    const seen: { issuedRunning: boolean; answered: string | undefined }[] = [];
    for (;;) {
      const arn = (await hub.ledger.getRun(r.runId))?.executionArn;
      const issuedRunning = arn !== undefined && hub.executions.get(arn)?.status === 'RUNNING';
      const view = await callApi<{ status: string; execution?: { status: string } }>(
        port,
        'GET',
        path,
        undefined,
        {
          env,
        },
      );
      seen.push({ issuedRunning, answered: view.execution?.status });
      if (view.execution && view.execution.status !== 'RUNNING') break;
    }
    // The request that saw the end was made while the execution still ran: it waited for it.
    expect(seen.at(-1)).toEqual({ issuedRunning: true, answered: 'SUCCEEDED' });
  }, 120_000);
});
