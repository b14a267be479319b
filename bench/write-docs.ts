/**
 * Writes docs/benchmarks.md again from saved results, e.g. after editing the generator or
 * bench/tried-and-not-kept.md, or from the figures a long `npm run bench` saved before it was
 * stopped (the table then says the run was interrupted):
 *
 *   node --import tsx bench/write-docs.ts [docs/benchmarks.json | .bench/results.json]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../local/project-root.js';
import { RESULTS, writeBenchmarkDocs } from './benchmarks-doc.js';
import { pricePer1000 } from './support/price.js';
import type { BenchResults } from './table.js';

const root = projectRoot();
const saved = JSON.parse(readFileSync(process.argv[2] ?? join(root, RESULTS), 'utf8')) as BenchResults;
// Figures saved mid-bench carry the counted run but not yet its price.
const c = saved.counted;
const results: BenchResults =
  saved.cost || !c
    ? saved
    : { ...saved, cost: pricePer1000(c.requests, c.s3HttpRequests, c.transitions, c.tiles) };
writeBenchmarkDocs(root, results);
process.stdout.write(`${join(root, 'docs/benchmarks.md')} written from ${process.argv[2] ?? RESULTS}\n`);
