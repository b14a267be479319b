import type { RedriveReport } from '../../../lib/coordination/redrive.js';
import type { ExecutionLink } from '../../../lib/ledger/execution-chain.js';
import type { RunRecord } from '../../../lib/model/run.js';
import type { S3ObjectRef } from '../../../lib/store/s3-copy.js';
import type { CapacityView } from '../../hub/capacity-controller.js';
import type { InputFile } from '../input-file.js';
import type { OutputDir } from '../output-dir.js';

/** A run as `status` shows it: its record, its execution now, the chain of its executions. */
export type RunView = RunRecord & {
  execution?: { status: string; state?: string; error?: string; cause?: string };
  executions?: (ExecutionLink & { name: string; historyEvents?: number })[];
  capacity?: CapacityView;
};

export interface SubmitResult {
  readonly outcome: string;
  readonly runId?: string;
  readonly reason?: string;
  /** Where a person can watch the run's execution (the Step Functions console on AWS). */
  readonly console?: string;
}

export interface VerifyView {
  readonly ok: boolean;
  readonly markers: number;
  readonly objects: number;
  readonly gaps: readonly { key: string; problem: string }[];
  readonly parts: readonly string[];
  readonly orphans: readonly { pid: number; command: string }[];
  readonly claimsHeld: number;
  /** What this target cannot see (a deployed stack's workers' scratch is on their tasks). */
  readonly unseen?: string;
}

export interface QueueDepths {
  readonly work: { readonly visible: number; readonly inFlight: number };
  readonly deadLetters: { readonly visible: number; readonly inFlight: number };
}

export interface SubmitOptions {
  readonly zoom?: number | string;
  /** Bytes of the file sent. */
  readonly onSent?: (sent: number, total: number) => void;
  /** Bytes of it stored in the bucket, where a server stores what it was sent (geohub up). */
  readonly onStored?: (stored: number, total: number) => void;
  /** Bytes of an object already in S3 copied so far (a stage's server-side copy). */
  readonly onCopied?: (copied: number, total: number) => void;
  /** Ctrl-C: stops the submit, leaving nothing where it was stopped before the run started. */
  readonly signal?: AbortSignal;
}

/**
 * What the control commands (`submit`, `status`, `cancel`, `redrive`, `verify`, `get`) and the
 * page act on: a running `geohub up` (up-operator.ts) or a deployed stage (stage-operator.ts).
 * The commands are the same; only discovery and authentication differ.
 */
export interface Operator {
  /** Where it acts, in the user's terms: "geohub up on 127.0.0.1:4747", "stage dev in eu-west-1". */
  readonly where: string;
  submit(input: InputFile, options: SubmitOptions): Promise<SubmitResult>;
  /** Starts a run from an object already in S3, copied server-side (a deployed stage only). */
  submitObject?(object: S3ObjectRef, options: SubmitOptions): Promise<SubmitResult>;
  runs(): Promise<RunView[]>;
  /** The work queue's and the dead-letter queue's messages, waiting and in flight. */
  queues(): Promise<QueueDepths>;
  /** One run in detail; `waitMs`: answer early once its execution ends. */
  run(runId: string, waitMs?: number): Promise<RunView>;
  /** Stops the run's execution; resolves once the run is recorded CANCELLED. */
  cancel(runId: string): Promise<RunView>;
  redrive(runId?: string): Promise<RedriveReport>;
  verify(runId: string): Promise<VerifyView>;
  /** Copies the run's outputs into `out`; `resume` keeps the tiles already there whole. */
  copyOutputs(runId: string, out: OutputDir, resume: boolean): Promise<number>;
  close(): void;
}
