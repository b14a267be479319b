import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ExtractTileRequest } from './extract-tile-points.js';

const require = createRequire(import.meta.url);

/** A process to run through a ToolRunner: the executable and its argv (never a shell line). */
export interface ToolCommand {
  readonly file: string;
  readonly args: readonly string[];
}

/**
 * The command that runs the point extractor (extract-tile-points-main) as a child of this Node:
 * the built .js as is; the TypeScript source (under tests and tsx) through tsx's loader, the way
 * local/node-entry.ts starts workers. The request travels as one JSON argument.
 */
export function extractorCommand(request: ExtractTileRequest, base = import.meta.url): ToolCommand {
  const typescript = base.endsWith('.ts');
  const main = fileURLToPath(new URL(`./extract-tile-points-main${typescript ? '.ts' : '.js'}`, base));
  const loader = typescript ? ['--import', pathToFileURL(require.resolve('tsx')).href] : [];
  return { file: process.execPath, args: [...loader, main, JSON.stringify(request)] };
}
