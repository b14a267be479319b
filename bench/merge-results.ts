/**
 * Puts the overhead rows (and the split bundle's row) of a later `npm run bench -- --only
 * overhead,bundle --results <file>` into the saved results of a whole run, the overhead rows
 * marked as measured apart (with that run's time and load), then `bench/write-readme.ts` writes
 * the table:
 *
 *   node --import tsx bench/merge-results.ts <overhead results> [.bench/results.json]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../local/project-root.js';
import type { BenchResults } from './table.js';

const [overheadFile, target = join(projectRoot(), '.bench/results.json')] = process.argv.slice(2);
if (!overheadFile) throw new Error('usage: merge-results.ts <overhead results> [results.json]');
const whole = JSON.parse(readFileSync(target, 'utf8')) as BenchResults;
const apart = JSON.parse(readFileSync(overheadFile, 'utf8')) as BenchResults;
const hasOverhead = apart.overhead.length > 0;
if (!hasOverhead && !apart.bundle)
  throw new Error(`${overheadFile} holds no overhead rows and no bundle row`);
const merged: BenchResults = {
  ...whole,
  ...(hasOverhead
    ? { overhead: apart.overhead, overheadRun: { at: apart.at, ...(apart.load ? { load: apart.load } : {}) } }
    : {}),
  // The bundle's row carries its own date.
  ...(apart.bundle ? { bundle: apart.bundle } : {}),
};
writeFileSync(target, `${JSON.stringify(merged, null, 2)}\n`);
const what = [hasOverhead ? 'overhead rows' : '', apart.bundle ? 'bundle row' : '']
  .filter(Boolean)
  .join(' and ');
process.stdout.write(`${target}: ${what} from ${overheadFile} (${apart.at})\n`);
