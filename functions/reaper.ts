import middy from '@middy/core';
import { reconcileExecutions } from '../lib/coordination/reconcile-executions.js';
import type { ExecutionStarter } from '../lib/executions/execution-starter.js';
import type { Ledger } from '../lib/ledger/ledger.js';
import { type FunctionDeps, functionDeps } from './deps.js';

/**
 * Scheduled backstop: frees leases that expired (a worker that vanished without its
 * finally blocks), in every run whatever its state. Deliberate cancels release their claims at
 * once; this only catches the rest.
 */
export async function reapActiveRuns(ledger: Ledger, now = Date.now()): Promise<{ reaped: number }> {
  return { reaped: await ledger.reapExpiredLeases(now) };
}

/** The leases, then the ends of executions whose status event EventBridge never delivered. */
export const reaperTask =
  (deps: Pick<FunctionDeps, 'ledger' | 'chain'> & { starter: Pick<ExecutionStarter, 'statusOf'> }) =>
  async () => {
    const { reaped } = await reapActiveRuns(deps.ledger);
    const ends = await reconcileExecutions(deps);
    return {
      reaped,
      reconciled: ends.filter((e) => e.outcome !== 'unchanged' && e.outcome !== 'ignored').length,
    };
  };

export const handler = middy().handler(() => {
  const deps = functionDeps();
  // The starter is built when the leases are freed: a reaper without one still frees them.
  return reaperTask({ ...deps, starter: { statusOf: (arn) => deps.starter().statusOf!(arn) } })();
});
