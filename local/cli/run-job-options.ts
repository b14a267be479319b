import type { RunRecord } from '../../lib/model/run.js';
import type { JobParams } from '../../lib/split/job-params.js';
import type { EmulatorSet } from '../stack/emulator-set.js';
import type { InputFile } from './input-file.js';
import type { OutputDir } from './output-dir.js';
import type { RunningUp } from './running-up.js';

/** What `geohub run` is asked (run-job.ts), and what every way of running it answers. */
export interface RunJobOptions {
  /** The input as the user named it: one file, a directory, a list file, or the first of several. */
  readonly file: string;
  /** Every input given (several files: a collection); absent: `[file]`. */
  readonly inputs?: readonly string[];
  readonly out: string;
  readonly zoom?: number | string;
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
  readonly outputs: {
    readonly dir: string;
    readonly mosaic?: string;
    readonly stac?: string;
    readonly pmtiles?: string;
  };
  readonly durationMs: number;
  /** The input's upload to the local bucket: bytes, seconds, and the parts S3 acknowledged. */
  readonly upload?: { readonly bytes: number; readonly seconds: number; readonly parts: number };
  readonly reason?: string;
  /** The run's warnings (a CRS planned without its grid: docs/crs.md#grids). */
  readonly warnings?: readonly string[];
  /** A collection run: its name, the members it read and those it skipped (runs/<run>/members.json). */
  readonly collection?: { readonly name: string; readonly members: number; readonly skipped: number };
}

/** The inputs checked and the output directory prepared: what a way of running a job starts from. */
export interface CheckedRun {
  readonly started: number;
  readonly input: InputFile;
  readonly job: JobParams;
  readonly out: OutputDir;
  readonly emulators: EmulatorSet;
  /** A collection's member files (job-inputs.ts), uploaded as one run named `name`. */
  readonly members?: readonly InputFile[];
  readonly name?: string;
}
