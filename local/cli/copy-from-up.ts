import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createAdapters } from '../../lib/adapters/create-adapters.js';
import { loadConfig } from '../../lib/config/config.js';
import { manifestIndexKey } from '../../lib/manifest/manifest-ref.js';
import { runIdSchema } from '../../lib/model/ids.js';
import { copyRunOutputs } from './copy-outputs.js';
import type { OutputDir } from './output-dir.js';

/** A copy of one run's outputs from a running `geohub up`, made ready while the run goes on. */
export interface UpCopier {
  copy(out: OutputDir, options?: { readonly outputsReady?: Promise<unknown> }): Promise<number>;
  /** Closes the clients (the copy does it too). */
  close(): void;
}

/**
 * A run's outputs, from a running `geohub up`'s bucket into --out, read with the operator's key
 * (docs/deploy.md, "Operator permissions"). Its own module, prepared while the run goes on: the
 * SDK clients load (~0.2 s) and their first request (credentials, a connection to the bucket) is
 * made then, a HEAD of the run's manifest, off the path of a small job (run-on-up.ts).
 */
export function prepareCopyFromUp(
  operatorEnv: Readonly<Record<string, string>>,
  runId: string,
  options: {
    /** The up's mirror root (up-token.ts): the run's tiles are linked from `<mirror>/<runId>`. */
    readonly mirrorRoot?: string;
    /** Keep the tiles a previous, interrupted copy left whole (`geohub get`). */
    readonly resume?: boolean;
  } = {},
): UpCopier {
  const { mirrorRoot, resume = false } = options;
  const operator = createAdapters(loadConfig(operatorEnv));
  const mirror = mirrorRoot ? join(mirrorRoot, runIdSchema.parse(runId)) : undefined;
  // Warmed, not needed: a failure here is the copy's to meet and report.
  const warm = operator.store.head(manifestIndexKey(runId)).catch(() => undefined);
  return {
    async copy(out, { outputsReady } = {}) {
      try {
        await warm;
        if (!resume) await out.clearPrevious();
        return await copyRunOutputs(operator.store, runId, out.path, { mirror, resume, outputsReady });
      } finally {
        operator.destroy();
        // Copied: the up keeps no more of this run (the bucket has it all).
        if (mirror) await rm(mirror, { recursive: true, force: true });
      }
    },
    close: () => operator.destroy(),
  };
}

/** A run's outputs from a running `geohub up` into --out, in one call. */
export function copyFromUp(
  operatorEnv: Readonly<Record<string, string>>,
  runId: string,
  out: OutputDir,
  options: Parameters<typeof prepareCopyFromUp>[2] = {},
) {
  return prepareCopyFromUp(operatorEnv, runId, options).copy(out);
}
