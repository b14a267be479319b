import type { PhaseMark } from '../../lib/log/phase-marks.js';

/**
 * What each event of a `geohub run` waited for (lib/log/phase-marks.ts names the marks; a
 * worker's are taken first or last over the workers). Following, from the command's end, the
 * input that came last gives the critical path: the phases that a faster start would shorten.
 * An input that came after its event was not waited for; a missing one (the up's own start, a
 * cold run's absent up) is skipped.
 */
export const WAITS_FOR: Readonly<Record<string, readonly string[]>> = {
  'cli: done': ['cli: stack stopped', 'cli: outputs copied'],
  'cli: stack stopped': ['cli: outputs copied', 'cli: run ended'],
  // Tiles and outputs are copied side by side: the copy ends with the later.
  'cli: outputs copied': ['cli: tiles copied', 'cli: run ended'],
  'cli: tiles copied': ['cli: tiles copy started'],
  // Once every sub-tile is done, beside the finalize; else once the run has ended.
  'cli: tiles copy started': ['last worker: metatile done', 'cli: run ended'],
  'cli: run ended': ['step finalize: end'],
  'step finalize: end': ['step finalize: start'],
  'step finalize: start': ['last worker: metatile done'],
  'last worker: metatile done': ['first worker: tool started'],
  'first worker: tool started': ['step enqueue: end', 'first worker: polling'],
  'step enqueue: end': ['step enqueue: start'],
  'step enqueue: start': ['step split: end'],
  'step split: end': ['step split: start'],
  'step split: start': ['hub: source stored', 'hub: lambda containers warm'],
  'hub: source stored': ['cli: hub ready', 'cli: inputs checked'],
  'hub: lambda containers warm': ['cli: inputs checked'],
  'first worker: polling': ['first worker: environment received'],
  'first worker: environment received': ['stack: tables and queues made', 'first worker: code loaded'],
  'first worker: code loaded': ['first worker: process start'],
  'first worker: process start': ['cli: inputs checked'],
  'cli: hub ready': ['stack: tables and queues made'],
  'stack: tables and queues made': ['stack: emulators up'],
  'stack: emulators up': ['emulator dynamodb: ready', 'emulator s3rver: ready', 'emulator sqs: ready'],
  'emulator dynamodb: ready': ['cli: inputs checked'],
  'emulator s3rver: ready': ['cli: inputs checked'],
  'emulator sqs: ready': ['cli: inputs checked'],
  'cli: inputs checked': ['cli: code loaded'],
  'cli: code loaded': ['cli: process start'],
};

/** Events of the graph in the order of a run, for the table. */
export const EVENTS: readonly string[] = [...new Set(Object.entries(WAITS_FOR).flat(2))];

/**
 * One run's events, in ms after the CLI's process start: the CLI's own marks, and the marks of
 * every other process (emulators, hub steps, workers; an up's) made while the command ran.
 */
export function runEvents(marks: readonly PhaseMark[]): Map<string, number> {
  // The command profiled started last: an up it ran on is a CLI process too, started before.
  const start = marks
    .filter((m) => m.phase === 'cli: process start')
    .reduce<PhaseMark | undefined>((a, m) => (a && a.at > m.at ? a : m), undefined);
  const end = marks.find((m) => m.phase === 'cli: done' && m.pid === start?.pid);
  if (!start || !end) throw new Error('the profile has no CLI start or end: was GEOHUB_PROFILE passed?');
  const events = new Map<string, number>();
  const at = (name: string, t: number, keep: (old: number, t: number) => boolean) => {
    const old = events.get(name);
    if (old === undefined || keep(old, t)) events.set(name, t);
  };
  for (const m of marks) {
    if (m.pid !== start.pid && (m.at < start.at || m.at > end.at)) continue; // an up's other runs
    const t = m.at - start.at;
    if (m.phase.startsWith('worker: ')) {
      const what = m.phase.slice('worker: '.length);
      at(`first worker: ${what}`, t, (old, t) => t < old);
      at(`last worker: ${what}`, t, (old, t) => t > old);
    } else at(m.phase, t, (old, t) => t < old);
  }
  return events;
}

/** The chain of events the command's end waited for, from its start. */
export function criticalPath(events: ReadonlyMap<string, number>): string[] {
  const path = ['cli: done'];
  for (;;) {
    const node = path[0]!;
    const t = events.get(node)!;
    const inputs = (WAITS_FOR[node] ?? []).filter((i) => events.has(i) && events.get(i)! <= t);
    if (inputs.length === 0) return path;
    path.unshift(inputs.reduce((a, b) => (events.get(b)! > events.get(a)! ? b : a)));
  }
}
