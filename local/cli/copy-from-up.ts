import { createAdapters } from '../../lib/adapters/create-adapters.js';
import { loadConfig } from '../../lib/config/config.js';
import { copyRunOutputs } from './copy-outputs.js';
import type { OutputDir } from './output-dir.js';

/**
 * A run's outputs, from a running `geohub up`'s bucket into --out, read with the operator's key
 * (docs/deploy.md, "Operator permissions"). Its own module: the SDK clients load (~0.2 s) while
 * the run goes on, off the path of a small job (run-on-up.ts).
 */
export async function copyFromUp(
  operatorEnv: Readonly<Record<string, string>>,
  runId: string,
  out: OutputDir,
) {
  const operator = createAdapters(loadConfig(operatorEnv));
  try {
    await out.clearPrevious();
    return await copyRunOutputs(operator.store, runId, out.path);
  } finally {
    operator.destroy();
  }
}
