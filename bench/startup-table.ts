import type { StartupFigures, StartupProfile } from './startup-profile.js';
import { EVENTS } from './support/startup-path.js';

/** What each event is, for a reader of the benchmark document. */
const MEANING: Readonly<Record<string, string>> = {
  'cli: process start': 'the command starts (node)',
  'cli: code loaded': "the CLI's bundle loaded",
  'cli: inputs checked': 'inputs, job and --out checked',
  'emulator sqs: ready': 'SQS stand-in listening',
  'emulator s3rver: ready': 'S3 stand-in listening',
  'emulator dynamodb: ready': "DynamoDB Local's JVM listening",
  'stack: emulators up': 'every stand-in up',
  'stack: tables and queues made': 'the table, the bucket and the queues made',
  'cli: hub ready': 'state machine, IAM, upload trigger wired',
  'first worker: process start': 'a worker process starts',
  'first worker: code loaded': "a worker's bundle loaded",
  'first worker: environment received': 'a worker has the stack’s endpoints',
  'first worker: polling': 'a worker polls the queue',
  'hub: lambda containers warm': 'the Lambda containers of every run’s steps started',
  'hub: source stored': 'the file stored in the bucket (the upload)',
  'step split: start': 'the upload’s event started the run: split',
  'step split: end': 'split done',
  'step enqueue: start': 'enqueue',
  'step enqueue: end': 'every metatile on the queue',
  'first worker: tool started': 'the first tile warped',
  'last worker: metatile done': 'the last tile marked',
  'step finalize: start': 'the progress check saw the end: finalize',
  'step finalize: end': 'mosaic, STAC, summary written',
  'cli: run ended': 'the CLI sees the run ended',
  'cli: tiles copy started': 'the copy into --out begins (every tile done: beside the finalize)',
  'cli: tiles copied': 'the tiles in --out (linked from the mirror, or downloaded)',
  'cli: outputs copied': 'outputs copied into --out',
  'cli: stack stopped': 'workers and stand-ins stopped',
  'cli: done': 'the command exits',
};

const cell = (f: StartupFigures, name: string) => {
  const s = f.events[name];
  if (!s) return '—';
  const critical = f.critical[name] ?? 0;
  const mark = critical === 0 ? '' : critical === s.runs ? ' **●**' : ` ● ${critical}/${s.runs}`;
  return `${Math.round(s.median)} (${Math.round(s.min)}–${Math.round(s.max)})${mark}`;
};

/** The profile as a table: each event's ms after the start, cold and on a running up. */
export function startupTable(p: StartupProfile, older = ''): string {
  const rows = [
    `## Start-up profile: the ${p.tiles}-tile job (${p.job})`,
    '',
    `Every process of the command marks its phases (\`GEOHUB_PROFILE\`, lib/log/phase-marks.ts). Each cell: ms after the command started, median (min–max) of ${p.cold.seconds.runs} runs; **●** on the critical path in every run (● k/n: in k of n), found by following from the exit what each event waited for (bench/support/startup-path.ts). Whole command: cold ${p.cold.seconds.median} s (${p.cold.seconds.min}–${p.cold.seconds.max}), on a running up ${p.onUp.seconds.median} s (${p.onUp.seconds.min}–${p.onUp.seconds.max}).${older}`,
    '',
    '| event | what | cold `geohub run` | on a running `geohub up` |',
    '| --- | --- | --- | --- |',
  ];
  const seen = EVENTS.filter((e) => p.cold.events[e] || p.onUp.events[e]);
  const order = (e: string) => p.cold.events[e]?.median ?? p.onUp.events[e]?.median ?? 0;
  for (const e of [...seen].sort((a, b) => order(a) - order(b))) {
    rows.push(`| \`${e}\` | ${MEANING[e] ?? ''} | ${cell(p.cold, e)} | ${cell(p.onUp, e)} |`);
  }
  return rows.join('\n');
}
