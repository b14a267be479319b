/**
 * Writes the README's benchmark table from a saved results file, e.g. the figures a long
 * `npm run bench` saved before it was stopped (the table then says which rows were measured):
 *
 *   node --import tsx bench/write-readme.ts [.bench/results.json]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../local/project-root.js';
import { pricePer1000 } from './support/price.js';
import { writeReadmeTable } from './support/readme-table.js';
import { type BenchResults, benchTable } from './table.js';

const root = projectRoot();
const saved = JSON.parse(
  readFileSync(process.argv[2] ?? join(root, '.bench/results.json'), 'utf8'),
) as BenchResults;
// Figures saved mid-bench carry the counted run but not yet its price.
const c = saved.counted;
const results: BenchResults =
  saved.cost || !c
    ? saved
    : { ...saved, cost: pricePer1000(c.requests, c.s3HttpRequests, c.transitions, c.tiles) };
const table = benchTable(results);
process.stdout.write(`${table}\n`);
if (!writeReadmeTable(root, table))
  throw new Error('README.md has no <!-- bench:start --> / <!-- bench:end --> markers');
