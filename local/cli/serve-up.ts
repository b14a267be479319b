import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../lib/log/logger.js';
import { parseFaultRates } from '../faults/fault-rates.js';
import { type LocalHub, startLocalHub } from '../hub/local-hub.js';
import { OPERATOR } from '../iam/local-iam.js';
import { startApiServer } from '../server/api-server.js';
import { tokenGate } from '../server/auth.js';
import { hubRunControl } from '../server/hub-run-control.js';
import { createPage } from '../server/page/create-page.js';
import { UPLOAD_LIMITS } from '../server/receive-upload.js';
import { openStateDir } from '../server/state-dir.js';
import { newUpSecret, tokenFile, writeUpToken } from '../server/up-token.js';
import { EXIT_CANCELLED } from './cli-error.js';
import { type CliIo, emit } from './io.js';
import { stopSignals } from './stop-signals.js';

/** `geohub up` (commands/up.ts): the stack, the workers and the page, until Ctrl-C. */
/** `geohub up`'s options (commands/up.ts parses them). */
export interface UpOptions {
  readonly port: number;
  readonly workers: number;
  readonly json?: boolean;
  /** The largest file `geohub submit` may send, in GB (receive-upload.ts). */
  readonly maxUploadGb: number;
}

export async function serveUp(opts: UpOptions, io: CliIo, global: { verbose?: boolean }): Promise<void> {
  const verbose = Boolean(global.verbose);
  const log = createLogger({ component: 'geohub-up' });
  // A state directory it would refuse (a planted link, another user's) is said before the stack starts.
  await (await openStateDir()).close();
  // Listen for Ctrl-C from the start: the stand-ins and workers are in groups of their own,
  // so a terminal's SIGINT reaches only this process, which stops them in order.
  const signals = stopSignals();
  // The tiles of the runs a `geohub run` on this up will copy, each run in a directory of its
  // own (lib/output/output-mirror.ts); private to this user, gone with the up.
  const mirror = mkdtempSync(join(tmpdir(), 'geohub-up-mirror-'));
  const removeMirror = () => rmSync(mirror, { recursive: true, force: true });
  process.once('exit', removeMirror);
  const hub = await startLocalHub({
    workers: opts.workers,
    // As hard as AWS: concurrent transactions conflict, hot items throttle; GEOHUB_FAULT_* adds more.
    faults: parseFaultRates(process.env),
    log,
    onWorkerLog: verbose ? (line) => io.stderr.write(`${line}\n`) : undefined,
    workerEnv: { GEOHUB_OUTPUT_MIRROR_DIR: mirror, GEOHUB_OUTPUT_MIRROR_PER_RUN: '1' },
  });
  // Two values: the CLI's bearer token, and the page's session cookie (auth.ts says why).
  const secrets = { token: newUpSecret(), session: newUpSecret() };
  let api: Awaited<ReturnType<typeof startApiServer>> | undefined;
  let removeToken = async () => {};
  const page = createPage(hub);
  try {
    const limits = { ...UPLOAD_LIMITS, maxBytes: opts.maxUploadGb * 1e9, mirrorRoot: mirror };
    api = await startApiServer(hubRunControl(hub, limits), opts.port, page.handle, (port) =>
      tokenGate(secrets, port),
    );
    const port = Number(new URL(api.url).port);
    removeToken = await writeUpToken(port, {
      url: api.url,
      token: secrets.token,
      pid: process.pid,
      stack: hub.stack.env,
      operator: hub.stack.envFor(OPERATOR),
      mirror,
    });
    const pageUrl = `${api.url}/?login=${secrets.session}`;
    emit(
      io,
      opts.json,
      {
        url: api.url,
        pageUrl,
        tokenFile: tokenFile(port),
        pid: process.pid,
        workers: hub.pool.pids(),
        renderCache: page.cacheDir,
      },
      () =>
        [
          `geohub up: ${api!.url} (API and run-control page), ${opts.workers} workers`,
          `open the page (this URL logs you in once): ${pageUrl}`,
          'Ctrl-C stops everything.',
        ].join('\n'),
    );
    await signals.until();
  } finally {
    await removeToken();
    await api?.close();
    await page.close();
  }
  // Running runs are cancelled first (as the console's Stop button would), so the workers
  // stop their tools on the cancel; then everything stops. One line says what happened.
  const cancelled = await cancelRunningRuns(hub).finally(async () => {
    await hub.stop();
    removeMirror();
    process.off('exit', removeMirror);
    signals.dispose();
  });
  io.stderr.write(
    `geohub up: stopped${cancelled.length ? `; cancelled ${cancelled.map((r) => `${r.runId} (${r.status})`).join(', ')}` : ''}\n`,
  );
  io.exitCode = signals.signalled() === 'SIGINT' ? EXIT_CANCELLED : 0;
}

async function cancelRunningRuns(hub: LocalHub): Promise<{ runId: string; status: string }[]> {
  const running = (await hub.ledger.listRuns(1_000)).filter((r) => r.status === 'RUNNING');
  await hub.executions.stopAll();
  return Promise.all(
    running.map(async (r) => ({ runId: r.runId, status: (await hub.ledger.getRun(r.runId))?.status ?? '?' })),
  );
}
