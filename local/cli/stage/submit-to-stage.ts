import { basename } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Ledger } from '../../../lib/ledger/ledger.js';
import { runIdFor } from '../../../lib/model/ids.js';
import type { ObjectStore } from '../../../lib/store/object-store.js';
import { copyObject, type S3ObjectRef } from '../../../lib/store/s3-copy.js';
import { uploadFileMultipart } from '../../../lib/store/s3-multipart-upload.js';
import { incomingKey } from '../../hub/incoming-key.js';
import { withJobSidecar } from '../../hub/job-sidecar.js';
import { CliError, EXIT_CANCELLED } from '../cli-error.js';
import type { InputFile } from '../input-file.js';
import type { SubmitOptions, SubmitResult } from '../operator/operator.js';

/** How long the upload's event may take to become a run (S3 → on-upload → the ledger). */
const RUN_APPEARS_MS = 90_000;
const POLL_MS = 500;

export interface SubmitDeps {
  readonly store: ObjectStore;
  readonly s3: S3Client;
  readonly ledger: Pick<Ledger, 'getRun'>;
  readonly now: () => number;
}

/**
 * A file uploaded to a stage as a user would with the AWS CLI: its job sidecar first, then the
 * file (multipart, with progress) under incoming/, whose S3 event starts the run (or an object
 * already in S3, copied there server-side). The run's id is
 * the object version's (lib/model/ids.ts), so the run is found by it, not guessed.
 *
 * Stopped (`options.signal`: Ctrl-C) or failed before the object is stored, it leaves nothing:
 * the multipart upload or copy is aborted and the sidecar removed. Stopped after, the run starts
 * without this command, and the message says how to cancel it.
 */
export async function submitToStage(
  deps: SubmitDeps,
  source: { readonly file: InputFile } | { readonly object: S3ObjectRef },
  options: SubmitOptions,
): Promise<SubmitResult & { executionArn?: string }> {
  const key = incomingKey(basename('file' in source ? source.file.path : source.object.key));
  const { signal } = options;
  const where = `s3://${deps.store.bucket}/${key}`;
  let done: { etag: string; versionId?: string };
  try {
    const job = options.zoom === undefined ? undefined : { zoom: options.zoom };
    done = await withJobSidecar(deps.store, key, job, () => {
      signal?.throwIfAborted();
      return 'file' in source
        ? uploadFileMultipart(deps.s3, deps.store.bucket, key, source.file.path, {
            onProgress: options.onSent,
            signal,
          })
        : copyObject(
            deps.s3,
            source.object,
            { bucket: deps.store.bucket, key },
            { onProgress: options.onCopied, signal },
          );
    });
  } catch (error) {
    if (signal?.aborted)
      throw new CliError(`cancelled: nothing is left of the upload to ${where}`, EXIT_CANCELLED, {
        cause: error,
      });
    throw error;
  }
  const runId = runIdFor({
    bucket: deps.store.bucket,
    key,
    version: done.versionId ?? done.etag.replace(/"/g, ''),
  });
  const until = deps.now() + RUN_APPEARS_MS;
  for (;;) {
    const run = await deps.ledger.getRun(runId);
    if (run?.status === 'FAILED' && !run.executionArn)
      return { outcome: 'rejected', runId, reason: run.reason };
    if (run?.executionArn) return { outcome: 'started', runId, executionArn: run.executionArn };
    if (deps.now() > until) {
      throw new CliError(
        `uploaded s3://${deps.store.bucket}/${key}, but no run ${runId} appeared within ${RUN_APPEARS_MS / 1000} s: check the bucket's event notification and the on-upload function's logs`,
      );
    }
    await sleep(POLL_MS, undefined, { signal }).catch(() => {
      throw new CliError(
        `stopped waiting: ${where} is stored, and its run ${runId} starts without this command (\`geohub cancel ${runId}\` with this --stage stops it)`,
        EXIT_CANCELLED,
      );
    });
  }
}
