import type { Ledger } from '../../lib/ledger/ledger.js';

export interface WaitForRunDeps {
  readonly ledger: Pick<Ledger, 'getRun'>;
  /** The execution's status while it is known ('RUNNING' until it ends). */
  readonly executionStatus: (executionArn: string) => string | undefined;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
}

/**
 * Waits until a run just started can be looked up. The trigger starts the execution and its
 * split records the run, so for a moment after `submit` said "started" a `status` of that run
 * would answer "no such run" (CI met it: the idle `geohub up` test, 2026-12-03). Ends once the
 * run is recorded, once the execution is no longer running (it failed before its split wrote
 * anything: status then tells why), or after `timeoutMs` (the answer goes out regardless).
 */
export async function waitForRun(
  deps: WaitForRunDeps,
  runId: string,
  executionArn: string,
  { timeoutMs = 30_000, everyMs = 50 } = {},
): Promise<boolean> {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = deps.now ?? Date.now;
  const deadline = now() + timeoutMs;
  for (;;) {
    if (await deps.ledger.getRun(runId)) return true;
    const status = deps.executionStatus(executionArn);
    if (status !== undefined && status !== 'RUNNING') return false;
    if (now() >= deadline) return false;
    await sleep(everyMs);
  }
}
