import { describe, expect, it } from 'vitest';
import { criticalPath, runEvents } from '../../../../bench/support/startup-path.js';
import type { PhaseMark } from '../../../../lib/log/phase-marks.js';

const CLI = 100;
const mark = (phase: string, at: number, pid = CLI): PhaseMark => ({ phase, at: 10_000 + at, pid });

/** A cold run whose workers were late: the first tool waited for a worker, not for the queue. */
const coldMarks: PhaseMark[] = [
  mark('cli: process start', 0),
  mark('cli: code loaded', 100),
  mark('cli: inputs checked', 150),
  mark('emulator sqs: ready', 300, 201),
  mark('emulator s3rver: ready', 500, 202),
  mark('emulator dynamodb: ready', 1_200, 203),
  mark('stack: emulators up', 1_210),
  mark('stack: tables and queues made', 1_500),
  mark('cli: hub ready', 1_520),
  mark('hub: lambda containers warm', 1_400),
  mark('worker: process start', 400, 301),
  mark('worker: process start', 420, 302),
  mark('worker: code loaded', 1_000, 301),
  mark('worker: environment received', 1_600, 301),
  mark('worker: polling', 2_400, 301),
  mark('worker: polling', 2_500, 302),
  mark('hub: source stored', 1_650),
  mark('step split: start', 1_700),
  mark('step split: end', 1_800),
  mark('step enqueue: start', 1_810),
  mark('step enqueue: end', 1_900),
  mark('worker: tool started', 2_450, 301),
  mark('worker: tool started', 2_550, 302),
  mark('worker: metatile done', 2_700, 301),
  mark('worker: metatile done', 2_900, 302),
  mark('step finalize: start', 2_950),
  mark('step finalize: end', 3_100),
  mark('cli: run ended', 3_150),
  mark('cli: outputs copied', 3_200),
  mark('cli: stack stopped', 3_300),
  mark('cli: done', 3_310),
];

/** A run on an up (pid 500) from the CLI's start to its finalize's start. */
const upRunUntilFinalize: PhaseMark[] = [
  mark('cli: process start', 0),
  mark('cli: code loaded', 80),
  mark('cli: inputs checked', 90),
  mark('hub: source stored', 180, 500),
  mark('step split: start', 200, 500),
  mark('step split: end', 260, 500),
  mark('step enqueue: start', 261, 500),
  mark('step enqueue: end', 330, 500),
  mark('worker: tool started', 400, 301),
  mark('worker: metatile done', 700, 301),
  mark('step finalize: start', 760, 500),
];

describe('the start-up profile: what each event waited for', () => {
  it("takes a worker's marks first and last over the workers, in ms after the command's start", () => {
    const events = runEvents(coldMarks);
    expect(events.get('first worker: polling')).toBe(2_400);
    expect(events.get('last worker: metatile done')).toBe(2_900);
    expect(events.get('cli: done')).toBe(3_310);
  });

  it('follows the latest input back from the exit: here the workers, not the queue, held the first tool', () => {
    // The bug this catches: following the first input, or an input that came after its event
    // (the containers' warm-up finished before the split here, and was waited for; a worker's
    // polling, after the enqueue, is on the path).
    expect(criticalPath(runEvents(coldMarks))).toEqual([
      'cli: process start',
      'cli: code loaded',
      'cli: inputs checked',
      'emulator dynamodb: ready',
      'stack: emulators up',
      'stack: tables and queues made',
      'first worker: environment received',
      'first worker: polling',
      'first worker: tool started',
      'last worker: metatile done',
      'step finalize: start',
      'step finalize: end',
      'cli: run ended',
      'cli: outputs copied',
      'cli: stack stopped',
      'cli: done',
    ]);
  });

  it("on a running up, keeps only the up's marks made while the command ran", () => {
    const UP = 500;
    const marks = [
      // The up's own start, long before, and an earlier run's tool: not this command's.
      mark('cli: process start', -60_000, UP),
      mark('worker: polling', -50_000, 301),
      mark('worker: tool started', -40_000, 301),
      ...upRunUntilFinalize,
      mark('step finalize: end', 900, UP),
      mark('cli: run ended', 950),
      mark('cli: outputs copied', 1_100),
      mark('cli: done', 1_110),
    ];
    const events = runEvents(marks);
    expect(events.get('first worker: tool started')).toBe(400);
    expect(events.has('first worker: polling')).toBe(false);
    expect(criticalPath(events)).toEqual([
      'cli: process start',
      'cli: code loaded',
      'cli: inputs checked',
      'hub: source stored',
      'step split: start',
      'step split: end',
      'step enqueue: start',
      'step enqueue: end',
      'first worker: tool started',
      'last worker: metatile done',
      'step finalize: start',
      'step finalize: end',
      'cli: run ended',
      'cli: outputs copied',
      'cli: done',
    ]);
  });

  it('the tiles copied beside the finalize: the copy, not the finalize, is on the path when it ends last', () => {
    const marks = [
      ...upRunUntilFinalize,
      mark('cli: tiles copy started', 780),
      mark('step finalize: end', 900, 500),
      mark('cli: run ended', 950),
      mark('cli: tiles copied', 1_050),
      mark('cli: outputs copied', 1_100),
      mark('cli: done', 1_110),
    ];
    expect(criticalPath(runEvents(marks)).slice(-6)).toEqual([
      'first worker: tool started',
      'last worker: metatile done',
      'cli: tiles copy started',
      'cli: tiles copied',
      'cli: outputs copied',
      'cli: done',
    ]);
  });
});
