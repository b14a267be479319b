import { createHash } from 'node:crypto';
import { type SuccessorDeps, startSuccessor } from './start-successor.js';

export type HandOverDeps = SuccessorDeps;

export interface HandOverRequest {
  readonly runId: string;
  /** The execution handing over. */
  readonly executionArn: string;
  readonly source: { bucket: string; key: string; version: string };
  readonly operation?: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

/**
 * Hands a run to a fresh execution before this one nears Step Functions' history limit
 * (docs/architecture.md, "Runs of any length"): same run, new execution name, resuming at
 * the progress loop. The name derives from the predecessor's, so a retried task finds the
 * successor it already started instead of starting a second.
 */
export async function handOver(
  deps: HandOverDeps,
  request: HandOverRequest,
): Promise<{ executionArn: string }> {
  const name = `${request.runId}-h${createHash('sha256').update(request.executionArn).digest('hex').slice(0, 12)}`;
  const executionArn = await startSuccessor(deps, name, 'handover', request);
  await deps.chain.ended(request.runId, request.executionArn, { status: 'HANDED_OVER' });
  return { executionArn };
}
