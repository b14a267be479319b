import { basename } from 'node:path';
import { markPhase } from '../../lib/log/phase-marks.js';
import { ENDED_RUN_STATUSES, type RunRecord } from '../../lib/model/run.js';
import { plainFileName } from '../server/plain-file-name.js';
import { callApi } from './api-client.js';
import { CliError } from './cli-error.js';
import { earlyTileCopy } from './early-tile-copy.js';
import type { CheckedRun, RunJobOptions, RunSummary } from './run-job-options.js';
import { runSummary } from './run-summary.js';
import type { RunningUp } from './running-up.js';
import { uploadToUp } from './upload-to-up.js';

type RunView = RunRecord & { execution?: { status: string } };
type Outcome =
  | { outcome: 'started'; runId: string; executionArn: string }
  | { outcome: 'rejected'; runId: string; reason?: string }
  | { outcome: 'ignored'; reason?: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How often the run is looked at: one loopback request and a ledger read, well under a tile's time. */
/** How long one status request may wait for the run's end: the progress line's refresh, and Ctrl-C's latency. */
const WAIT_MS = 250;
/** Between two status requests the up answered at once (no execution running to wait on). */
const POLL_MS = 50;
const ENDED = new Set<string>(ENDED_RUN_STATUSES);

/**
 * `geohub run` on the user's running `geohub up` (running-up.ts): the file goes up through its
 * API as `geohub submit` sends it, with the whole job; the run is followed through the API and
 * cancelled there on Ctrl-C; the outputs are read from its bucket with the operator's key and
 * copied into --out as a private run's are. Nothing of the up is started or stopped.
 */
export async function runOnUp(
  options: RunJobOptions,
  checked: Omit<CheckedRun, 'emulators'>,
  up: RunningUp,
): Promise<RunSummary> {
  const { started, input, job, out } = checked;
  const env = options.env;
  const name = plainFileName.safeParse(basename(input.path));
  if (!name.success) {
    throw new CliError(
      `cannot send ${JSON.stringify(options.file)} to geohub up: its name must be ${name.error.issues[0]!.message} (--standalone runs it on a private stack)`,
    );
  }
  const query = new URLSearchParams({
    name: name.data,
    // The up mirrors this run's tiles for the copy below (lib/output/output-mirror.ts).
    ...(up.mirror ? { mirror: '1' } : {}),
    ...(Object.keys(job).length === 0 ? {} : { job: JSON.stringify(job) }),
  });
  const uploadStarted = Date.now();
  const upload = await uploadToUp<Outcome>(up.port, `/api/uploads?${query}`, input, {
    env,
    onSent: options.onUpload,
  });
  const sent = { bytes: input.bytes, seconds: (Date.now() - uploadStarted) / 1000, parts: 1 };
  if (upload.outcome === 'ignored') throw new CliError(`the upload did not start a run: ${upload.reason}`);
  markPhase('cli: uploaded, run started');
  const named = (text: string | undefined) => text?.replace(/s3:\/\/\S+?\/incoming\/\S+/g, options.file);
  if (upload.outcome === 'rejected') {
    return {
      ...runSummary(upload.runId, 'FAILED', undefined, options.out, started, named(upload.reason)),
      upload: sent,
    };
  }
  return followOnUp(options, up, { runId: upload.runId, started, out, sent, named });
}

/** What following a run on the up needs besides the options: the run and how to name its source. */
export interface FollowedRun {
  readonly runId: string;
  readonly started: number;
  readonly out: CheckedRun['out'];
  readonly sent: NonNullable<RunSummary['upload']>;
  /** The user's path in place of the object key a reason names. */
  readonly named: (text: string | undefined) => string | undefined;
}

/**
 * A run on the up followed to its end through its API (cancelled there on Ctrl-C), its outputs
 * then read from the up's bucket with the operator's key and copied into --out.
 */
export async function followOnUp(
  options: RunJobOptions,
  up: RunningUp,
  followed: FollowedRun,
): Promise<RunSummary> {
  const { runId, started, out, sent, named } = followed;
  const env = options.env;
  // Loaded while the run goes on (not during the upload, which needs this process's CPU too);
  // awaited only to copy (copy-from-up.ts).
  const copier = import('./copy-from-up.js').then((m) =>
    m.prepareCopyFromUp(up.operator, runId, { mirrorRoot: up.mirror }),
  );
  copier.catch(() => {});
  const early = earlyTileCopy((outputsReady) => copier.then((c) => c.copy(out, { outputsReady })));
  const path = `/api/runs/${encodeURIComponent(runId)}`;
  let cancelling = false;
  let run: RunView;
  try {
    for (;;) {
      if (options.signal?.aborted && !cancelling) {
        cancelling = true;
        // As on a private stack: the execution stopped, the workers stop their tools.
        await callApi(up.port, 'POST', `${path}/cancel`, undefined, { env });
      }
      // The up answers as soon as the execution ends, else after WAIT_MS: no poll's delay at the end.
      run = await callApi<RunView>(up.port, 'GET', `${path}?wait=${WAIT_MS}`, undefined, { env });
      options.onProgress?.(run);
      early.observe(run.counters);
      if (ENDED.has(run.status) && run.execution?.status !== 'RUNNING') break;
      // No execution to wait on (ended, or not yet known): the up answered at once; poll gently.
      if (run.execution?.status !== 'RUNNING') await sleep(POLL_MS);
    }
  } catch (error) {
    // Followed no further: a copy started early stops, the copier's clients are closed.
    await early.abandon(error);
    void copier.then((c) => c.close()).catch(() => {});
    throw error;
  }
  markPhase('cli: run ended');
  const copying = early.finish();
  if (copying) {
    await copying;
    markPhase('cli: outputs copied');
  } else {
    if (cancelling) await waitForClaims(up.port, path, env);
    if (run.status === 'SUCCEEDED' || run.counters.done > 0) {
      await (await copier).copy(out);
      markPhase('cli: outputs copied');
    } else (await copier).close();
  }
  return {
    ...runSummary(
      runId,
      run.status,
      run,
      options.out,
      started,
      run.status === 'SUCCEEDED' ? undefined : named(run.reason),
    ),
    upload: sent,
  };
}

/** After a cancel, the up's workers release their claims within a status poll and a kill grace. */
async function waitForClaims(port: number, path: string, env: NodeJS.ProcessEnv | undefined) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const { held } = await callApi<{ held: number }>(port, 'GET', `${path}/claims`, undefined, { env });
    if (held === 0) return;
    await sleep(200);
  }
}
