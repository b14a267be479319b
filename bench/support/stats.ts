/** A timing over several runs: the median, with the spread shown as min and max. */
export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly runs: number;
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

export function spread(values: readonly number[]): Spread {
  if (values.length === 0) throw new Error('no runs to summarise');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median: round(median), min: round(sorted[0]!), max: round(sorted.at(-1)!), runs: values.length };
}

/** "12.3 s (11.9–13.0, 3 runs)" */
export function showSpread(s: Spread, unit = 's'): string {
  return `${s.median} ${unit} (${s.min}–${s.max}, ${s.runs} runs)`;
}

export async function repeat<T>(runs: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < runs; i += 1) out.push(await fn(i));
  return out;
}

export const ratio = (a: number, b: number) => round(a / b);
