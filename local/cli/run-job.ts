import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { countClaims } from '../../lib/ledger/tile-records.js';
import type { RunRecord } from '../../lib/model/run.js';
import { parseFaultRates } from '../faults/fault-rates.js';
import { startLocalHub } from '../hub/local-hub.js';
import { CliError } from './cli-error.js';
import { copyRunOutputs } from './copy-outputs.js';
import { checkRoomForCopy } from './free-space.js';
import { checkInputFile } from './input-file.js';
import { readLocalJob } from './local-job.js';
import { prepareOutputDir } from './output-dir.js';

export interface RunJobOptions {
  readonly file: string;
  readonly out: string;
  readonly zoom?: number;
  /** A job sidecar; default `<file>.job.json` when it exists. */
  readonly job?: string;
  /** Replace a previous run's outputs in `out` (refused otherwise). */
  readonly replace?: boolean;
  readonly workers: number;
  /** Called with the run's record as it progresses (counters, status). */
  readonly onProgress?: (run: RunRecord) => void;
  /** Called as the upload sends its parts. */
  readonly onUpload?: (sentBytes: number, totalBytes: number) => void;
  /** Aborting (Ctrl-C) cancels the run cleanly, then resolves with its CANCELLED summary. */
  readonly signal?: AbortSignal;
  readonly onWorkerLog?: (line: string) => void;
}

export interface RunSummary {
  readonly runId: string;
  readonly status: string;
  readonly tiles: {
    readonly total: number;
    readonly done: number;
    readonly failed: number;
    readonly cancelled: number;
  };
  readonly outputs: { readonly dir: string; readonly mosaic?: string; readonly stac?: string };
  readonly durationMs: number;
  /** The input's upload to the local bucket: bytes, seconds, and the parts S3 acknowledged. */
  readonly upload?: { readonly bytes: number; readonly seconds: number; readonly parts: number };
  readonly reason?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The main job on the embedded default: start the local stack and workers, upload the file
 * (the upload's own event starts the run), follow it to the end, copy the outputs, stop
 * everything. Whatever happens, nothing is left running.
 */
export async function runJob(options: RunJobOptions): Promise<RunSummary> {
  const started = Date.now();
  // Everything the user gave is checked before anything starts.
  const input = await checkInputFile(options.file);
  const job = await readLocalJob(input.path, options.job, options.zoom);
  const out = await prepareOutputDir(options.out, options.replace ?? false);
  await checkRoomForCopy(options.file, input.path);
  const hub = await startLocalHub({
    workers: options.workers,
    pollMs: 500,
    // Production settings (long-poll wait, lease, request timeout) and AWS's behaviour under
    // concurrency; GEOHUB_FAULT_* adds AWS's occasional errors.
    faults: parseFaultRates(process.env),
    onWorkerLog: options.onWorkerLog ? (line) => options.onWorkerLog?.(line) : undefined,
  });
  try {
    const uploadStarted = Date.now();
    const upload = await hub
      .upload(input.path, {
        ...(Object.keys(job).length === 0 ? {} : { job }),
        onProgress: options.onUpload,
        signal: options.signal,
      })
      .catch((error: unknown) => {
        if (options.signal?.aborted) {
          throw new CliError('cancelled during the upload: no run was started', 130, { cause: error });
        }
        throw new CliError(`the upload of ${options.file} failed: ${(error as Error).message}`, 1, {
          cause: error,
        });
      });
    if (upload.outcome === 'ignored') throw new CliError(`the upload did not start a run: ${upload.reason}`);
    const runId = upload.runId;
    const sent = { bytes: input.bytes, seconds: (Date.now() - uploadStarted) / 1000, parts: upload.parts };
    // The user knows their file, not the object key it was uploaded to: name the file.
    const uploaded = `s3://${hub.store.bucket}/${upload.key}`;
    const named = (text: string | undefined) => text?.split(uploaded).join(options.file);
    if (upload.outcome === 'rejected') {
      return {
        ...summary(runId, 'FAILED', undefined, options.out, started, named(upload.reason)),
        upload: sent,
      };
    }
    const execution = hub.executions.wait(upload.executionArn);
    let ended = false;
    void execution.then(() => {
      ended = true;
    });
    let cancelling = false;
    while (!ended) {
      if (options.signal?.aborted && !cancelling) {
        cancelling = true;
        // As the console's Stop button: the execution ends ABORTED, the run CANCELLED, the
        // workers stop their tools and release their claims.
        await hub.executions.stop(upload.executionArn);
      }
      const run = await hub.ledger.getRun(runId);
      if (run) options.onProgress?.(run);
      await Promise.race([execution, sleep(250)]);
    }
    if (cancelling) await waitForClaims(hub.ledger, runId);
    const run = await hub.ledger.getRun(runId);
    if (run) options.onProgress?.(run);
    const status = run?.status ?? 'FAILED';
    const record = hub.executions.get(upload.executionArn);
    if (status === 'SUCCEEDED' || (run?.counters.done ?? 0) > 0) {
      await out.clearPrevious();
      await copyRunOutputs(hub.store, runId, out.path);
    }
    const reason = run?.reason ?? (record?.error ? `${record.error}: ${record.cause ?? ''}` : undefined);
    return {
      ...summary(
        runId,
        status,
        run,
        options.out,
        started,
        status === 'SUCCEEDED' ? undefined : named(reason),
      ),
      upload: sent,
    };
  } finally {
    await hub.stop();
  }
}

/** After a cancel, the workers release their claims within a status poll and a kill grace. */
async function waitForClaims(ledger: import('../../lib/ledger/ledger.js').Ledger, runId: string) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if ((await countClaims(ledger, runId)) === 0) return;
    await sleep(200);
  }
}

function summary(
  runId: string,
  status: string,
  run: RunRecord | undefined,
  out: string,
  started: number,
  reason?: string,
): RunSummary {
  const c = run?.counters;
  const dir = resolve(out);
  return {
    runId,
    status,
    tiles: {
      total: c?.total ?? 0,
      done: c?.done ?? 0,
      failed: c?.failed ?? 0,
      cancelled: (c?.cancelled ?? 0) + (c?.parked ?? 0),
    },
    outputs: {
      dir,
      mosaic: existsSync(join(dir, 'mosaic.vrt')) ? join(dir, 'mosaic.vrt') : undefined,
      stac: existsSync(join(dir, 'collection.json')) ? join(dir, 'collection.json') : undefined,
    },
    durationMs: Date.now() - started,
    ...(reason ? { reason } : {}),
  };
}
