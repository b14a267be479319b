import { parseArgs } from 'node:util';
import { SECTIONS, type Section } from './sections.js';

export interface BenchArgs {
  readonly quick: boolean;
  readonly runs: number;
  readonly results: string | undefined;
  readonly only: Section[] | undefined;
  /** Whether this run measures `section` (every section unless `--only` names some). */
  readonly want: (section: Section) => boolean;
}

/** `npm run bench`'s options (bench/run-all.ts), refused with the list of sections when one is unknown. */
export function parseBenchArgs(argv: string[] = process.argv.slice(2)): BenchArgs {
  const { values: args } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      runs: { type: 'string' },
      results: { type: 'string' },
      only: { type: 'string' },
    },
  });
  const asked = args.only?.split(',').map((x) => x.trim());
  const unknown = asked?.filter((x) => !(SECTIONS as readonly string[]).includes(x)) ?? [];
  if (unknown.length > 0)
    throw new Error(`--only: unknown section ${unknown.join(', ')} (${SECTIONS.join(', ')})`);
  const only = asked as Section[] | undefined;
  const quick = Boolean(args.quick);
  const runs = Number(args.runs ?? (quick ? 1 : 3));
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`--runs must be a whole number ≥ 1, not ${args.runs}`);
  return { quick, runs, results: args.results, only, want: (section) => !only || only.includes(section) };
}
