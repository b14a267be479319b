/**
 * Writes the README's benchmark table from a saved results file, e.g. the figures a long
 * `npm run bench` saved before it was stopped (the table then says which rows were measured):
 *
 *   node --import tsx bench/write-readme.ts [.bench/results.json]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../local/project-root.js';
import { writeReadmeTable } from './support/readme-table.js';
import { type BenchResults, benchTable } from './table.js';

const root = projectRoot();
const results = JSON.parse(
  readFileSync(process.argv[2] ?? join(root, '.bench/results.json'), 'utf8'),
) as BenchResults;
const table = benchTable(results);
process.stdout.write(`${table}\n`);
if (!writeReadmeTable(root, table))
  throw new Error('README.md has no <!-- bench:start --> / <!-- bench:end --> markers');
