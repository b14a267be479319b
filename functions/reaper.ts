import middy from '@middy/core';
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

export const reaperTask = (deps: Pick<FunctionDeps, 'ledger'>) => async () => reapActiveRuns(deps.ledger);

export const handler = middy().handler(() => reaperTask(functionDeps())());
