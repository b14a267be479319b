/**
 * Puts the overhead rows of a later `npm run bench -- --only overhead --results <file>` into the
 * saved results of a whole run, marked as measured apart (with that run's time and load), then
 * `bench/write-readme.ts` writes the table:
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
if (apart.overhead.length === 0) throw new Error(`${overheadFile} holds no overhead rows`);
const merged: BenchResults = {
  ...whole,
  overhead: apart.overhead,
  overheadRun: { at: apart.at, ...(apart.load ? { load: apart.load } : {}) },
};
writeFileSync(target, `${JSON.stringify(merged, null, 2)}\n`);
process.stdout.write(`${target}: overhead rows from ${overheadFile} (${apart.at})\n`);
