import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { leftoverProcessLines } from '../../local/server/leftover-processes.js';
import { findFiles } from './find-files.js';

/** Stack, worker and tool processes still running on this machine. */
export const leftoverProcesses = leftoverProcessLines;

/** `.part` files in worker scratch directories under the temp dir. */
export function leftoverParts(): string[] {
  return readdirSync(tmpdir())
    .filter((d) => d.startsWith('geohub-pool-'))
    .flatMap((d) => findFiles(join(tmpdir(), d), (n) => n.endsWith('.part')));
}
