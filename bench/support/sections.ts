import type { Provenance } from './provenance.js';

/** The bench's sections, as `--only` names them; each is one or more rows of the table. */
export const SECTIONS = [
  'overhead',
  'startup',
  'sigterm',
  'rerun',
  'cancel',
  'counted',
  'split',
  'collection',
  'finalize',
  'bundle',
  'pdal',
  'pyramid',
] as const;
export type Section = (typeof SECTIONS)[number];

/** Where each section's figures live in the results. */
const FIELDS: Readonly<Record<Section, readonly string[]>> = {
  overhead: ['overhead'],
  startup: ['startup'],
  sigterm: ['resume.sigterm'],
  rerun: ['resume.rerun'],
  cancel: ['cancel'],
  counted: ['counted', 'cost'],
  split: ['split'],
  collection: ['collection'],
  finalize: ['finalized'],
  bundle: ['bundle'],
  pdal: ['pdal'],
  pyramid: ['pyramid'],
};

interface Results {
  readonly measured?: Partial<Record<Section, Provenance>>;
  readonly resume?: object;
}

const get = (r: object, path: string): unknown =>
  path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], r);

/**
 * A partial re-measure (`--only`) merged into the previous results: the run's own figures and
 * provenance for the sections it measured; every other section keeps its figures and the
 * provenance they were measured with, so the table can say which rows are older, and from which
 * commit.
 */
export function mergeSections<R extends Results>(previous: R, fresh: R, only: readonly Section[]): R {
  const merged: Record<string, unknown> = {
    ...(fresh as Record<string, unknown>),
    resume: { ...fresh.resume },
  };
  const measured: Partial<Record<Section, Provenance>> = { ...fresh.measured };
  for (const section of SECTIONS) {
    if (only.includes(section)) continue;
    for (const path of FIELDS[section]) {
      const [head, tail] = path.split('.') as [string, string | undefined];
      if (tail) (merged.resume as Record<string, unknown>)[tail] = get(previous, path);
      else merged[head] = (previous as Record<string, unknown>)[head];
    }
    if (previous.measured?.[section]) measured[section] = previous.measured[section];
  }
  return { ...(merged as R), measured };
}

/** Every section this run measured, with the run's provenance. */
export function measuredBy(
  provenance: Provenance,
  sections: readonly Section[],
): Partial<Record<Section, Provenance>> {
  return Object.fromEntries(sections.map((s) => [s, provenance]));
}
