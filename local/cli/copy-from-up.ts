import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createAdapters } from '../../lib/adapters/create-adapters.js';
import { loadConfig } from '../../lib/config/config.js';
import { runIdSchema } from '../../lib/model/ids.js';
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
  /** The up's mirror root (up-token.ts): the run's tiles are linked from `<mirror>/<runId>`. */
  mirrorRoot?: string,
) {
  const operator = createAdapters(loadConfig(operatorEnv));
  const mirror = mirrorRoot ? join(mirrorRoot, runIdSchema.parse(runId)) : undefined;
  try {
    await out.clearPrevious();
    return await copyRunOutputs(operator.store, runId, out.path, { mirror });
  } finally {
    operator.destroy();
    // Copied: the up keeps no more of this run (the bucket has it all).
    if (mirror) await rm(mirror, { recursive: true, force: true });
  }
}
