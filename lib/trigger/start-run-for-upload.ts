import { recordFailedRun } from '../coordination/fail-run.js';
import type { ExecutionStarter } from '../executions/execution-starter.js';
import type { ExecutionChain } from '../ledger/execution-chain.js';
import type { Ledger } from '../ledger/ledger.js';
import { runIdFor } from '../model/ids.js';
import { InvalidJobParamsError } from '../split/errors.js';
import { type JobParams, MAX_SIDECAR_BYTES, parseJobParams, sidecarKeyFor } from '../split/job-params.js';
import type { ObjectStore } from '../store/object-store.js';
import type { UploadRecord } from './s3-event.js';

export const INCOMING_PREFIX = 'incoming/';

export interface StartRunDeps {
  readonly store: ObjectStore;
  readonly ledger: Ledger;
  readonly starter: ExecutionStarter;
  /** Where the run's chain of executions starts (geohub status shows it). */
  readonly chain?: ExecutionChain;
}

export type StartRunOutcome =
  | { readonly outcome: 'started' | 'duplicate'; readonly runId: string; readonly executionArn: string }
  | { readonly outcome: 'rejected'; readonly runId: string; readonly reason: string }
  | { readonly outcome: 'ignored'; readonly reason: string };

/**
 * An object landed under incoming/: start one execution for this object version, named by
 * its run id, so a duplicate S3 event finds the execution it already started. The optional
 * `<key>.job.json` sidecar (uploaded first) gives the operation and parameters; an invalid
 * one is recorded on a FAILED run with its message, and nothing starts.
 */
export async function startRunForUpload(deps: StartRunDeps, upload: UploadRecord): Promise<StartRunOutcome> {
  if (!upload.key.startsWith(INCOMING_PREFIX))
    return { outcome: 'ignored', reason: `not under ${INCOMING_PREFIX}` };
  if (upload.key.endsWith('.job.json')) return { outcome: 'ignored', reason: 'a job sidecar, not a source' };
  if (upload.bucket !== deps.store.bucket) return { outcome: 'ignored', reason: `not the data bucket` };
  // The ETag travels with the run: every read of the source, split's and the workers', is pinned to it.
  const source = {
    bucket: upload.bucket,
    key: upload.key,
    version: upload.version,
    ...(upload.etag ? { etag: upload.etag } : {}),
  };
  const runId = runIdFor(source);

  let job: JobParams = {};
  const sidecar = sidecarKeyFor(upload.key);
  try {
    const head = await deps.store.head(sidecar);
    // Sized before it is read: a large object named like a sidecar is never downloaded.
    if (head && head.bytes > MAX_SIDECAR_BYTES) {
      throw new InvalidJobParamsError(
        `${sidecar} is ${head.bytes} bytes; a sidecar is at most ${MAX_SIDECAR_BYTES}`,
      );
    }
    if (head) job = parseJobParams(await deps.store.getText(sidecar), sidecar);
  } catch (error) {
    if (!(error instanceof InvalidJobParamsError)) throw error;
    await recordFailedRun(deps.ledger, runId, source, error.message);
    return { outcome: 'rejected', runId, reason: error.message };
  }

  const { operation, ...params } = job;
  // The chain's first link before the execution: one that ends at once still finds it (a
  // duplicate event finds the link there already).
  await deps.chain?.started(runId, deps.starter.arnFor(runId), 'upload');
  const { executionArn, started } = await deps.starter.start(runId, {
    runId,
    source,
    executionArn: deps.starter.arnFor(runId),
    ...(operation ? { operation } : {}),
    params,
  });
  return { outcome: started ? 'started' : 'duplicate', runId, executionArn };
}
