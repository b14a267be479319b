import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRunMembers } from '../../lib/collection/run-members.js';
import type { Ledger } from '../../lib/ledger/ledger.js';
import { countClaims } from '../../lib/ledger/tile-records.js';
import { markPhase } from '../../lib/log/phase-marks.js';
import { parseFaultRates } from '../faults/fault-rates.js';
import { startLocalHub } from '../hub/local-hub.js';
import { CliError } from './cli-error.js';
import { copyRunOutputs } from './copy-outputs.js';
import { earlyTileCopy } from './early-tile-copy.js';
import type { CheckedRun, RunJobOptions, RunSummary } from './run-job-options.js';
import { runSummary } from './run-summary.js';
import { userPaths } from './user-paths.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The part of runJob (run-job.ts) that needs the hub: its code loads while the emulators start. */
export async function runOnHub(options: RunJobOptions, checked: CheckedRun): Promise<RunSummary> {
  const mirror = outputMirror();
  try {
    return await runWithMirror(options, checked, mirror.dir);
  } finally {
    mirror.remove();
  }
}

/**
 * The workers' output mirror (lib/output/output-mirror.ts): the tiles they upload are copied into
 * --out from here, not downloaded again. Removed after the run, and at exit if the CLI dies first.
 */
function outputMirror() {
  const dir = mkdtempSync(join(tmpdir(), 'geohub-mirror-'));
  const remove = () => {
    process.off('exit', remove);
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', remove);
  return { dir, remove };
}

async function runWithMirror(
  options: RunJobOptions,
  checked: CheckedRun,
  mirror: string,
): Promise<RunSummary> {
  const { started, input, job, out, emulators, members } = checked;
  const hub = await startLocalHub({
    emulators,
    workers: options.workers,
    // The progress check's wait (AWS: 10 s): the run ends half of it, on average, after its last
    // marker. Each check is one Lambda call and a few ledger reads: 250 ms costs little.
    pollMs: 250,
    // Production settings (long-poll wait, lease, request timeout) and AWS's behaviour under
    // concurrency; GEOHUB_FAULT_* adds AWS's occasional errors.
    faults: parseFaultRates(process.env),
    onWorkerLog: options.onWorkerLog ? (line) => options.onWorkerLog?.(line) : undefined,
    workerEnv: { GEOHUB_OUTPUT_MIRROR_DIR: mirror },
  });
  markPhase('cli: hub ready');
  try {
    const uploadStarted = Date.now();
    const jobOption = Object.keys(job).length === 0 ? {} : { job };
    const upload = await (members
      ? hub.uploadCollection(
          members.map((m) => m.path),
          {
            ...jobOption,
            name: checked.name ?? 'collection',
            sizes: members.map((m) => m.bytes),
            skipUnreadable: options.skipUnreadable === true,
            onProgress: options.onUpload,
            signal: options.signal,
          },
        )
      : hub.upload(input.path, { ...jobOption, onProgress: options.onUpload, signal: options.signal })
    ).catch((error: unknown) => {
      if (options.signal?.aborted) {
        throw new CliError('cancelled during the upload: no run was started', 130, { cause: error });
      }
      throw new CliError(`the upload of ${options.file} failed: ${(error as Error).message}`, 1, {
        cause: error,
      });
    });
    if (upload.outcome === 'ignored') throw new CliError(`the upload did not start a run: ${upload.reason}`);
    markPhase('cli: uploaded, run started');
    const runId = upload.runId;
    const sent = { bytes: input.bytes, seconds: (Date.now() - uploadStarted) / 1000, parts: upload.parts };
    // The user knows their files, not the object keys they were uploaded to: name the files.
    const named = userPaths(hub.store.bucket, upload.key, options.file, members);
    if (upload.outcome === 'rejected') {
      return {
        ...runSummary(runId, 'FAILED', undefined, options.out, started, named(upload.reason)),
        upload: sent,
      };
    }
    const execution = hub.executions.wait(upload.executionArn);
    let ended = false;
    void execution.then(() => {
      ended = true;
    });
    // The tiles are copied once all are done, beside the finalize (early-tile-copy.ts).
    const early = earlyTileCopy(async (outputsReady) => {
      await out.clearPrevious();
      return copyRunOutputs(hub.store, runId, out.path, { mirror, outputsReady });
    });
    let cancelling = false;
    try {
      while (!ended) {
        if (options.signal?.aborted && !cancelling) {
          cancelling = true;
          // As the console's Stop button: the execution ends ABORTED, the run CANCELLED, the
          // workers stop their tools and release their claims.
          await hub.executions.stop(upload.executionArn);
        }
        const run = await hub.ledger.getRun(runId);
        if (run) options.onProgress?.(run);
        early.observe(run?.counters);
        await Promise.race([execution, sleep(250)]);
      }
    } catch (error) {
      // Followed no further: a copy started early is stopped before the stack goes.
      await early.abandon(error);
      throw error;
    }
    markPhase('cli: run ended');
    const copying = early.finish();
    if (cancelling && !copying) await waitForClaims(hub.ledger, runId);
    // Nothing is left for the workers: they stop while the outputs are copied rather than after
    // (each takes about half a second on a few hundred tiles; hub.stop() then waits for the same
    // stop, local/pool/worker-pool.ts, and says if it failed).
    hub.pool.stop().catch(() => {});
    const run = await hub.ledger.getRun(runId);
    if (run) options.onProgress?.(run);
    const status = run?.status ?? 'FAILED';
    const record = hub.executions.get(upload.executionArn);
    if (copying) {
      await copying;
      markPhase('cli: outputs copied');
    } else if (status === 'SUCCEEDED' || (run?.counters.done ?? 0) > 0) {
      await out.clearPrevious();
      await copyRunOutputs(hub.store, runId, out.path, { mirror });
      markPhase('cli: outputs copied');
    }
    const reason = run?.reason ?? (record?.error ? `${record.error}: ${record.cause ?? ''}` : undefined);
    const summary = runSummary(
      runId,
      status,
      run,
      options.out,
      started,
      status === 'SUCCEEDED' ? undefined : named(reason),
    );
    const warnings = summary.warnings?.map((w) => named(w) ?? w);
    const read = members && (await readRunMembers(hub.store, runId).catch(() => undefined));
    const collection = members && {
      name: checked.name ?? 'collection',
      members: read?.members.length ?? 0,
      skipped: read?.skipped.length ?? 0,
    };
    return {
      ...summary,
      ...(warnings ? { warnings } : {}),
      ...(collection ? { collection } : {}),
      upload: sent,
    };
  } finally {
    await hub.stop();
    markPhase('cli: stack stopped');
  }
}

/** After a cancel, the workers release their claims within a status poll and a kill grace. */
async function waitForClaims(ledger: Ledger, runId: string) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if ((await countClaims(ledger, runId)) === 0) return;
    await sleep(200);
  }
}
