import type { RunRecord } from '../../lib/model/run.js';
import { startEmulators } from '../stack/emulator-set.js';
import { portOf } from './api-client.js';
import { checkRoomForCopy } from './free-space.js';
import type { InputFile } from './input-file.js';
import { type JobInputs, resolveJobInputs } from './job-inputs.js';
import { readLocalJob } from './local-job.js';
import { prepareOutputDir } from './output-dir.js';
import { findRunningUp, type RunningUp } from './running-up.js';

export interface RunJobOptions {
  /** The input as the user named it: one file, a directory, a list file, or the first of several. */
  readonly file: string;
  /** Every input given (several files: a collection); absent: `[file]`. */
  readonly inputs?: readonly string[];
  readonly out: string;
  readonly zoom?: number;
  /** A job sidecar; default `<file>.job.json` when it exists. */
  readonly job?: string;
  /** The source's CRS, replacing the file's (`--s-srs`): EPSG:<code>, a PROJ string or a WKT. */
  readonly sourceCrs?: string;
  /** A collection's unreadable members are skipped and recorded instead of refusing the run. */
  readonly skipUnreadable?: boolean;
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
  /** Start a private stack even when a `geohub up` of this user is running (`--standalone`). */
  readonly standalone?: boolean;
  /** Where the user's `geohub up` is looked for (its port, its state directory). */
  readonly env?: NodeJS.ProcessEnv;
  /** Said once the inputs are checked, when they are a collection: its name and member count. */
  readonly onCollection?: (collection: { readonly name: string; readonly members: number }) => void;
  /** Said when the run goes to the user's running `geohub up`, or why a found one is not used. */
  readonly onUp?: (use: { readonly using: RunningUp } | { readonly notUsed: string }) => void;
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
  /** The run's warnings (a CRS planned without its grid: docs/crs.md#grids). */
  readonly warnings?: readonly string[];
  /** A collection run: its name, the members it read and those it skipped (runs/<run>/members.json). */
  readonly collection?: { readonly name: string; readonly members: number; readonly skipped: number };
}

/**
 * The main job: on the user's running `geohub up` when there is one (run-on-up.ts), else on the
 * embedded default: start the local stack and workers, upload the file
 * (the upload's own event starts the run), follow it to the end, copy the outputs, stop
 * everything. Whatever happens, nothing is left running.
 */
export async function runJob(options: RunJobOptions): Promise<RunSummary> {
  const started = Date.now();
  // Everything the user gave is checked before anything starts.
  const inputs = await resolveJobInputs(options.inputs ?? [options.file]);
  const collection = inputs.kind === 'collection' ? inputs : undefined;
  const input: InputFile = collection
    ? { path: collection.sidecarBase, bytes: collection.members.reduce((n, m) => n + m.bytes, 0) }
    : (inputs as Extract<JobInputs, { kind: 'file' }>).file;
  const job = await readLocalJob(input.path, options.job, options.zoom, options.sourceCrs);
  const out = await prepareOutputDir(options.out, options.replace ?? false);
  for (const file of collection?.members ?? [input]) await checkRoomForCopy(options.file, file.path);
  if (collection) {
    options.onCollection?.({ name: collection.name, members: collection.members.length });
    const members = collection.members;
    const lookup = options.standalone
      ? undefined
      : await findRunningUp(portOf(options.env ?? process.env), options.env);
    if (lookup && 'found' in lookup) {
      options.onUp?.({ using: lookup.found });
      const { runCollectionOnUp } = await import('./run-collection-on-up.js');
      return runCollectionOnUp(
        options,
        { started, input, job, out, members, name: collection.name },
        lookup.found,
      );
    }
    if (lookup) options.onUp?.(lookup);
    const emulators = startEmulators();
    const { runOnHub } = await import('./run-on-hub.js').catch(async (error: unknown) => {
      await emulators.stop();
      throw error;
    });
    return runOnHub(options, { started, input, job, out, emulators, members, name: collection.name });
  }
  if (!options.standalone) {
    // The user's running up, used as a build daemon is: nothing to start, its workers are warm.
    const lookup = await findRunningUp(portOf(options.env ?? process.env), options.env);
    if (lookup && 'found' in lookup) {
      options.onUp?.({ using: lookup.found });
      const { runOnUp } = await import('./run-on-up.js');
      return runOnUp(options, { started, input, job, out }, lookup.found);
    }
    if (lookup) options.onUp?.(lookup);
  }
  // The emulators first, DynamoDB Local's Java the longest start of all: the hub's code (most
  // of the CLI's) loads while it starts, rather than before (local/stack/emulator-set.ts).
  const emulators = startEmulators();
  const { runOnHub } = await import('./run-on-hub.js').catch(async (error: unknown) => {
    await emulators.stop();
    throw error;
  });
  return runOnHub(options, { started, input, job, out, emulators });
}
