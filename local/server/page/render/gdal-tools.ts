import { runProcess } from '../../../../lib/process/run-process.js';
import type { RenderCommand } from './render-args.js';

export interface GdalToolOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs: number;
}

/** Runs one GDAL command for the renderer; resolves with its stdout. */
export type GdalTool = (command: RenderCommand, options: GdalToolOptions) => Promise<string>;

/**
 * GDAL through lib/process (its own process group, a budget, killed on abort). No .aux.xml
 * side files: the cache accounts for every byte it writes.
 */
export const runGdal: GdalTool = async (command, options) => {
  const result = await runProcess(command.file, command.args, {
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    graceMs: 1_000,
    env: { ...process.env, GDAL_PAM_ENABLED: 'NO' },
  });
  return result.stdout;
};
