import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processTable } from '../../lib/process/process-table.js';
import { findFiles } from './find-files.js';

/** Stack, worker and tool processes still running whose ancestry leads to `root` (or anywhere, if unset). */
export function leftoverProcesses(exclude: ReadonlySet<number> = new Set()): string[] {
  return processTable()
    .filter((p) => p.state !== 'Z' && !exclude.has(p.pid))
    .filter((p) =>
      /DynamoDBLocal|emulator-main|geohub-worker|^gdal|geohub-pointclo/.test(`${p.command} ${p.args}`),
    )
    .map((p) => `${p.pid} ${p.args.slice(0, 120)}`);
}

/** `.part` files in worker scratch directories under the temp dir. */
export function leftoverParts(): string[] {
  return readdirSync(tmpdir())
    .filter((d) => d.startsWith('geohub-pool-'))
    .flatMap((d) => findFiles(join(tmpdir(), d), (n) => n.endsWith('.part')));
}
