import { createAdapters } from '../../lib/adapters/create-adapters.js';
import { readRunMembers } from '../../lib/collection/run-members.js';
import { loadConfig } from '../../lib/config/config.js';
import { runIdFor } from '../../lib/model/ids.js';
import { incomingKey } from '../hub/incoming-key.js';
import { collectionFileName, uploadCollection } from '../hub/upload-collection.js';
import { localVersionId } from '../stack/versioned-events.js';
import { callApi } from './api-client.js';
import { CliError } from './cli-error.js';
import type { InputFile } from './input-file.js';
import type { CheckedRun, RunJobOptions, RunSummary } from './run-job-options.js';
import { followOnUp } from './run-on-up.js';
import type { RunningUp } from './running-up.js';
import { userPaths } from './user-paths.js';

/** How long the up's trigger may take to start the run once the manifest is in its bucket. */
const RUN_APPEARS_WITHIN_MS = 120_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A collection run on the user's running `geohub up`, uploaded as one is to AWS
 * (docs/collections.md): with the operator's key, every member under `collections/`, then the
 * manifest under `incoming/`, whose event starts the run on the up; the run is then followed
 * through the up's API as a single file's is, and shows on its page with its members.
 */
export async function runCollectionOnUp(
  options: RunJobOptions,
  checked: Omit<CheckedRun, 'emulators'> & { readonly members: readonly InputFile[]; readonly name: string },
  up: RunningUp,
): Promise<RunSummary> {
  const { started, job, out, members } = checked;
  const operator = createAdapters(loadConfig(up.operator));
  try {
    const key = incomingKey(collectionFileName(checked.name));
    const uploadStarted = Date.now();
    const done = await uploadCollection(
      operator.clients.s3,
      operator.store,
      members.map((m) => m.path),
      {
        manifestKey: key,
        ...(Object.keys(job).length === 0 ? {} : { job }),
        sizes: members.map((m) => m.bytes),
        skipUnreadable: options.skipUnreadable === true,
        onProgress: options.onUpload,
        signal: options.signal,
      },
    ).catch((error: unknown) => {
      if (options.signal?.aborted)
        throw new CliError('cancelled during the upload: no run was started', 130, { cause: error });
      throw new CliError(
        `the upload of ${options.file} to geohub up failed: ${(error as Error).message}`,
        1,
        {
          cause: error,
        },
      );
    });
    const bucket = operator.store.bucket;
    // The up's bucket keeps no versions: its events name each as the local stack does.
    const runId = runIdFor({ bucket, key, version: localVersionId(bucket, key, done.etag) });
    const sent = {
      bytes: checked.input.bytes,
      seconds: (Date.now() - uploadStarted) / 1000,
      parts: done.parts,
    };
    const named = userPaths(bucket, key, options.file, members);
    await runAppears(up, runId, options.env);
    const summary = await followOnUp(options, up, { runId, started, out, sent, named });
    const read = await readRunMembers(operator.store, runId).catch(() => undefined);
    const warnings = summary.warnings?.map((w) => named(w) ?? w);
    return {
      ...summary,
      ...(warnings ? { warnings } : {}),
      collection: {
        name: checked.name,
        members: read?.members.length ?? 0,
        skipped: read?.skipped.length ?? 0,
      },
    };
  } finally {
    operator.destroy();
  }
}

/** The run the manifest's upload started, once the up's trigger has recorded it. */
async function runAppears(up: RunningUp, runId: string, env: NodeJS.ProcessEnv | undefined) {
  const deadline = Date.now() + RUN_APPEARS_WITHIN_MS;
  for (;;) {
    try {
      await callApi(up.port, 'GET', `/api/runs/${encodeURIComponent(runId)}`, undefined, { env });
      return;
    } catch (error) {
      if (!/^no such run/.test((error as Error).message) || Date.now() > deadline) {
        throw new CliError(
          `the collection was uploaded to geohub up but no run ${runId} appeared: ${(error as Error).message}`,
          1,
          { cause: error },
        );
      }
    }
    await sleep(100);
  }
}
