import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RedriveReport } from '../../lib/coordination/redrive.js';
import type { ExecutionChain } from '../../lib/ledger/execution-chain.js';
import type { Ledger } from '../../lib/ledger/ledger.js';
import type { RunRecord } from '../../lib/model/run.js';
import type { ObjectStore } from '../../lib/store/object-store.js';
import type { CapacityView } from '../hub/capacity-controller.js';

/** An execution as the page shows it: its status, and where the local runner is in it. */
export interface ExecutionSnapshot {
  readonly status: string;
  readonly state?: string;
  readonly transitions?: number;
  readonly states?: readonly string[];
  readonly historyEvents?: number;
  readonly error?: string;
  readonly cause?: string;
}

/** What the page's API (api-server.ts) acts on: the local hub, or a deployed stage (`geohub console`). */
export interface RunControl {
  /** What the page says it shows: this machine's stack, or a deployed stage (its header). */
  readonly target:
    | { readonly kind: 'local' }
    | { readonly kind: 'stage'; readonly stage: string; readonly region: string };
  readonly ledger: Ledger;
  readonly store: ObjectStore;
  readonly chain: ExecutionChain;
  execution(executionArn: string): Promise<ExecutionSnapshot | undefined>;
  /** Resolves when the execution has ended, or after `ms` (whichever first). */
  waitForEnd(executionArn: string, ms: number): Promise<void>;
  /** An operator's cancel; undefined: no such run. */
  cancel(runId: string): Promise<RunRecord | undefined>;
  redrive(runId?: string): Promise<RedriveReport>;
  /** The run's leftovers on the workers' machine (.part files, orphaned tools), where it is this one. */
  debris(runId: string): { parts: string[]; orphans: { pid: number; command: string }[] } | undefined;
  workers(): unknown[];
  capacity(): CapacityView | undefined;
  queues(): Promise<{ work: unknown; deadLetters: unknown }>;
  /** Takes a file streamed by `geohub submit` (the local hub only; a stage takes uploads in its bucket). */
  receiveUpload?(req: IncomingMessage, res: ServerResponse, url: URL): Promise<unknown>;
}
